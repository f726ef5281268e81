package dev.ratelimit.host;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The poms of the build this module is part of: which modules it publishes, read as a release would. */
final class ReactorPoms {

    static final Path ROOT = Path.of("..");

    private ReactorPoms() {
    }

    /** The parent's modules that are jars and not marked maven.deploy.skip. */
    static List<String> publishedJarModules() throws Exception {
        List<String> published = new ArrayList<>();
        NodeList modules = pom(ROOT).getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            String module = modules.item(i).getTextContent().strip();
            Element project = pom(ROOT.resolve(module)).getDocumentElement();
            boolean notDeployed = project.getElementsByTagName("maven.deploy.skip").getLength() > 0;
            boolean pomOnly = "pom".equals(text(project, "packaging"));
            if (!notDeployed && !pomOnly) {
                published.add(module);
            }
        }
        return published;
    }

    /** Whether {@code module} is a runnable app (Spring Boot's plugin repackages it), not a library for apps. */
    static boolean isApp(String module) throws Exception {
        return pom(ROOT.resolve(module)).getDocumentElement().getTextContent().contains("spring-boot-maven-plugin");
    }

    static Document pom(Path module) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(module.resolve("pom.xml").toFile());
    }

    /** The text of {@code element}'s own child named {@code name}, empty when it has none. */
    static String text(Element element, String name) {
        for (var child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element candidate && candidate.getTagName().equals(name)) {
                return candidate.getTextContent().strip();
            }
        }
        return "";
    }
}
