package dev.ratelimit.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README and the guide leads somewhere: the file exists and, for a link into a
 * Markdown page, so does the heading its #anchor names. The guide was split out of one long README; a heading
 * renamed or a section moved to another page would otherwise leave links that GitHub renders but that land at
 * the top of a page, or nowhere, with no one told.
 */
class DocumentationLinksTest {

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : Documentation.pagesAndBenchmarks()) {
            List<String> prose = Documentation.prose(page);
            for (int i = 0; i < prose.size(); i++) {
                for (String[] link : Documentation.links(prose.get(i))) {
                    String target = link[1];
                    if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
                        continue; // https:, mailto:...: not ours to check offline
                    }
                    checked++;
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    String anchor = hash < 0 ? null : target.substring(hash + 1);
                    Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                    String where = Documentation.ROOT.relativize(page) + ":" + (i + 1) + ": [" + link[0] + "](" + target + ")";
                    if (!resolved.startsWith(Documentation.ROOT) || !Files.exists(resolved)) {
                        broken.add(where + ": no file " + resolved);
                    } else if (anchor != null && resolved.toString().endsWith(".md")
                            && !anchors.computeIfAbsent(resolved, Documentation::anchors).contains(anchor)) {
                        broken.add(where + ": no heading with the anchor #" + anchor + " in " + Documentation.ROOT.relativize(resolved));
                    }
                }
            }
        }

        assertThat(checked).as("links found: the reader of the pages works").isGreaterThan(100);
        assertThat(broken).as("broken links").isEmpty();
    }

    /** The anchors are GitHub's: a mistake here would let every link into a section with punctuation pass or fail. */
    @Test
    void anchorsAreMadeAsGitHubMakesThem() {
        assertThat(Documentation.anchor("Limits outside HTTP (bean methods, `RateLimitService.tryAcquire`)"))
                .isEqualTo("limits-outside-http-bean-methods-ratelimitservicetryacquire");
        assertThat(Documentation.anchor("`{p}:sysconfig` fields")).isEqualTo("psysconfig-fields");
        assertThat(Documentation.anchor("Hot counters: permits in batches")).isEqualTo("hot-counters-permits-in-batches");
        assertThat(Documentation.anchor("What the modules add to an app's classpath (issue 36)"))
                .isEqualTo("what-the-modules-add-to-an-apps-classpath-issue-36");
        assertThat(Documentation.anchor("snake_case and dash-es")).isEqualTo("snake_case-and-dash-es");
    }
}
