package dev.ratelimit.host;

import static dev.ratelimit.host.ReactorPoms.ROOT;
import static dev.ratelimit.host.ReactorPoms.pom;
import static dev.ratelimit.host.ReactorPoms.publishedJarModules;
import static dev.ratelimit.host.ReactorPoms.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a release publishes, checked in the reactor build (this module builds after every published one):
 * the BOM manages exactly the published modules at its own version; every published jar has its sources
 * and javadoc next to it; every published pom carries a license, SCM and developers.
 */
class PublishedArtifactsTest {

    private static final String VERSION = "0.1.0-SNAPSHOT";

    @Test
    void theBomManagesExactlyThePublishedModulesAtItsOwnVersion() throws Exception {
        Document bom = pom(ROOT.resolve("ratelimit-bom"));
        List<String> managed = new ArrayList<>();
        NodeList dependencies = bom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            assertThat(text(dependency, "groupId")).isEqualTo("dev.ratelimit");
            assertThat(text(dependency, "version")).isEqualTo("${project.version}");
            managed.add(text(dependency, "artifactId"));
        }

        assertThat(managed).containsExactlyInAnyOrderElementsOf(publishedJarModules());
        assertThat(text(bom.getDocumentElement(), "version")).isEqualTo(VERSION);
        assertThat(bom.getElementsByTagName("parent").getLength()).as("no parent: it would leak Spring Boot's versions")
                .isZero();
    }

    @Test
    void everyPublishedJarHasItsSourcesAndJavadoc() throws Exception {
        for (String module : publishedJarModules()) {
            Path target = ROOT.resolve(module).resolve("target");
            for (String classifier : List.of("sources", "javadoc")) {
                Path jar = target.resolve(module + "-" + VERSION + "-" + classifier + ".jar");
                assertThat(jar).as("%s (build the whole reactor: mvn verify from the root)", jar).isRegularFile();
            }
        }
        try (ZipFile javadoc = new ZipFile(ROOT.resolve("ratelimit-core/target/ratelimit-core-" + VERSION
                + "-javadoc.jar").toFile())) {
            assertThat(javadoc.getEntry("dev/ratelimit/interceptor/RateLimit.html")).as("the annotation's page").isNotNull();
        }
        try (ZipFile javadoc = new ZipFile(ROOT.resolve("ratelimit-interceptor/target/ratelimit-interceptor-" + VERSION
                + "-javadoc.jar").toFile())) {
            assertThat(javadoc.getEntry("dev/ratelimit/interceptor/RateLimitService.html")).as("the service's page")
                    .isNotNull();
        }
    }

    @Test
    void everyPublishedPomCarriesALicenseScmAndDevelopers() throws Exception {
        assertThat(ROOT.resolve("LICENSE")).content().startsWith("\n                                 Apache License");
        for (Path pom : List.of(ROOT, ROOT.resolve("ratelimit-bom"))) {
            Element project = pom(pom).getDocumentElement();
            assertThat(text(project, "licenses")).as("%s licenses", pom).contains("Apache License, Version 2.0");
            assertThat(text(project, "scm")).as("%s scm", pom).contains("scm:git:");
            assertThat(text(project, "developers")).as("%s developers", pom).isNotBlank();
            assertThat(text(project, "url")).as("%s url", pom).isNotBlank();
        }
    }
}
