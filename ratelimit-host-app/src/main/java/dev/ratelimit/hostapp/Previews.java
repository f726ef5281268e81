package dev.ratelimit.hostapp;

import org.springframework.stereotype.Component;

/** Reading samples come from the publishers' preview service, which this shop has no contract with yet. */
@Component
class Previews {

    String sample(String isbn) {
        throw new IllegalStateException("No preview service configured for " + isbn);
    }
}
