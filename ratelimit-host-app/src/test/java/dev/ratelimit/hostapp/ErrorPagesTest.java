package dev.ratelimit.hostapp;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.RequestEntity;
import org.springframework.http.ResponseEntity;

/** The shop's own error pages, in the visitor's language, and Spring Boot's JSON errors for API clients. */
@BookshopTest
class ErrorPagesTest {

    @Autowired
    TestRestTemplate rest;

    @Test
    void anUnknownBookGetsTheNotFoundPage() {
        ResponseEntity<String> response = get("/books/0000000000000", "text/html", "en");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.parseMediaType("text/html;charset=UTF-8"));
        assertThat(response.getBody()).contains("<title>Page not found</title>",
                "There is no page at /books/0000000000000.");
    }

    @Test
    void anUnknownPageGetsTheNotFoundPageInTheVisitorsLanguage() {
        assertThat(get("/books/9780141439518/reviews", "text/html", "de").getBody()).contains("Seite nicht gefunden",
                "Unter /books/9780141439518/reviews gibt es keine Seite.");
        ResponseEntity<String> french = get("/books/9780141439518/reviews", "text/html", "fr");
        assertThat(french.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(french.getBody()).contains("Page introuvable");
    }

    @Test
    void aFailingPageGetsTheServerErrorPageWithoutItsStackTrace() {
        ResponseEntity<String> response = get("/books/9780141439518/preview", "text/html", "fr");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(response.getBody()).contains("Une erreur est survenue", "<p id=\"status\">500</p>")
                .doesNotContain("IllegalStateException", "preview service");
    }

    @Test
    void anApiClientGetsSpringBootsJsonError() {
        ResponseEntity<String> response = get("/api/books/0000000000000", "application/json", "en");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
        Map<String, Object> error = JsonPath.read(response.getBody(), "$");
        assertThat(error).containsOnlyKeys("timestamp", "status", "error", "path")
                .containsEntry("status", 404).containsEntry("error", "Not Found")
                .containsEntry("path", "/api/books/0000000000000");
    }

    private ResponseEntity<String> get(String path, String accept, String language) {
        return rest.exchange(RequestEntity.get(path).header(HttpHeaders.ACCEPT, accept)
                .header(HttpHeaders.ACCEPT_LANGUAGE, language).build(), String.class);
    }
}
