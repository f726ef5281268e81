package dev.ratelimit.hostapp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.RequestEntity;
import org.springframework.http.ResponseEntity;

/** The pages in the visitor's language: the browser's, until they pick one with ?lang=, which a cookie keeps. */
@BookshopTest
class PagesTest {

    @Autowired
    TestRestTemplate rest;

    @Test
    void theHomePageSpeaksTheBrowsersLanguage() {
        assertThat(page("/", "en")).contains("<html lang=\"en\">", "Welcome to our bookshop", "We have 4 books for you.");
        assertThat(page("/", "de-DE,de;q=0.9")).contains("<html lang=\"de\">", "Willkommen in unserer Buchhandlung",
                "Wir haben 4 Bücher für Sie.");
        assertThat(page("/", "fr")).contains("<html lang=\"fr\">", "Bienvenue dans notre librairie");
    }

    @Test
    void aLanguageTheShopDoesNotOfferFallsBackToEnglish() {
        assertThat(page("/", "es")).contains("Welcome to our bookshop");
    }

    @Test
    void aLanguagePickedWithLangIsKeptInACookieOverTheBrowsersLanguage() {
        ResponseEntity<String> picked = get("/?lang=de", "fr", null);

        assertThat(picked.getBody()).contains("Willkommen in unserer Buchhandlung");
        String cookie = picked.getHeaders().getFirst(HttpHeaders.SET_COOKIE);
        assertThat(cookie).startsWith("bookshop-lang=de;").contains("Max-Age=31536000");

        ResponseEntity<String> next = get("/books", "fr", cookie.substring(0, cookie.indexOf(';')));
        assertThat(next.getBody()).contains("Unsere Bücher", "von Jane Austen");
    }

    @Test
    void aBooksDateAndPriceAreWrittenTheLanguagesWay() {
        assertThat(page("/books/9780141439518", "en")).contains("Published on 28 January 1813", "Price: 9.99");
        assertThat(page("/books/9780141439518", "de")).contains("Erschienen am 28 Januar 1813", "Preis: 9,99");
        assertThat(page("/books/9780141439518", "fr")).contains("Paru le 28 janvier 1813", "Prix : 9,99");
    }

    @Test
    void theCatalogueSearchesTitles() {
        assertThat(page("/books?q=AND", "en")).contains("Crime and Punishment", "Pride and Prejudice")
                .doesNotContain("Walden");
    }

    private String page(String path, String language) {
        ResponseEntity<String> response = get(path, language, null);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        return response.getBody();
    }

    private ResponseEntity<String> get(String path, String language, String cookie) {
        RequestEntity.HeadersBuilder<?> request = RequestEntity.get(path).header(HttpHeaders.ACCEPT, "text/html")
                .header(HttpHeaders.ACCEPT_LANGUAGE, language);
        if (cookie != null) {
            request.header(HttpHeaders.COOKIE, cookie);
        }
        return rest.exchange(request.build(), String.class);
    }
}
