package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.attoparser.AbstractMarkupHandler;
import org.attoparser.MarkupParser;
import org.attoparser.ParseException;
import org.attoparser.config.ParseConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The console's templates, read as Thymeleaf reads them. Thymeleaf includes a fragment before it evaluates
 * any other attribute of the same element ({@code th:replace} and {@code th:insert} come first): a
 * {@code th:if} there does not guard the fragment's arguments, which are evaluated anyway (the blocked-clients
 * page failed so on a client without a deny-list kind), and a {@code th:each} or {@code th:with} there is not
 * seen by them. A guard belongs on an element around the inclusion.
 */
class ConsoleTemplatesTest {

    private static final Set<String> INCLUSIONS = Set.of("th:replace", "th:insert");
    /** What Thymeleaf processes after an inclusion, so never for its arguments. */
    private static final Set<String> LATER = Set.of("th:if", "th:unless", "th:each", "th:with", "th:switch", "th:case",
            "th:object");

    @Test
    void noFragmentInclusionSharesItsElementWithAGuardOrAVariable() throws IOException, ParseException {
        Resource[] templates = new PathMatchingResourcePatternResolver()
                .getResources("classpath*:templates/ratelimit-console/*.html");
        assertThat(templates).as("the console's templates").hasSizeGreaterThan(5);
        List<String> misplaced = new ArrayList<>();
        for (Resource template : templates) {
            try (Reader reader = new InputStreamReader(template.getInputStream(), StandardCharsets.UTF_8)) {
                new MarkupParser(ParseConfiguration.htmlConfiguration()).parse(reader,
                        new Inclusions(template.getFilename(), misplaced));
            }
        }
        assertThat(misplaced).isEmpty();
    }

    /** Collects each element's attributes and reports an inclusion beside one processed after it. */
    private static final class Inclusions extends AbstractMarkupHandler {

        private final String template;
        private final List<String> misplaced;
        private final Set<String> attributes = new HashSet<>();
        private int line;

        Inclusions(String template, List<String> misplaced) {
            this.template = template;
            this.misplaced = misplaced;
        }

        @Override
        public void handleOpenElementStart(char[] buffer, int nameOffset, int nameLen, int line, int col) {
            start(line);
        }

        @Override
        public void handleStandaloneElementStart(char[] buffer, int nameOffset, int nameLen, boolean minimized, int line,
                                                 int col) {
            start(line);
        }

        @Override
        public void handleAttribute(char[] buffer, int nameOffset, int nameLen, int nameLine, int nameCol,
                                    int operatorOffset, int operatorLen, int operatorLine, int operatorCol,
                                    int valueContentOffset, int valueContentLen, int valueOuterOffset, int valueOuterLen,
                                    int valueLine, int valueCol) {
            attributes.add(new String(buffer, nameOffset, nameLen).replaceFirst("^data-th-", "th:"));
        }

        @Override
        public void handleOpenElementEnd(char[] buffer, int nameOffset, int nameLen, int line, int col) {
            end();
        }

        @Override
        public void handleStandaloneElementEnd(char[] buffer, int nameOffset, int nameLen, boolean minimized, int line,
                                               int col) {
            end();
        }

        private void start(int at) {
            attributes.clear();
            line = at;
        }

        private void end() {
            if (attributes.stream().anyMatch(INCLUSIONS::contains)) {
                attributes.stream().filter(LATER::contains).sorted()
                        .forEach(later -> misplaced.add(template + ":" + line + " " + later + " beside a fragment inclusion"));
            }
        }
    }
}
