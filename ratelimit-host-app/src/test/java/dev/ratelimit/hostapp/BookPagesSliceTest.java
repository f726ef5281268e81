package dev.ratelimit.hostapp;

import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.cookie;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** The controllers alone, on a catalogue of the test's making. */
@WebMvcTest({BookController.class, BookApiController.class})
@Import(SecurityConfig.class)
class BookPagesSliceTest {

    private static final BookView WALDEN = new BookView("9780199536559", "Walden", "or, Life in the Woods",
            "Henry David Thoreau", LocalDate.of(1854, 8, 9), new BigDecimal("7.25"));
    private static final BookView EMMA = new BookView("9780141439587", "Emma", null, "Jane Austen",
            LocalDate.of(1815, 12, 23), new BigDecimal("8.50"));

    @Autowired
    MockMvc mvc;

    @MockitoBean
    Catalog catalog;

    @MockitoBean
    Previews previews;

    @Test
    void theApiWritesABookAsJson() throws Exception {
        given(catalog.book(WALDEN.isbn())).willReturn(WALDEN);

        mvc.perform(get("/api/books/" + WALDEN.isbn()))
                .andExpect(status().isOk())
                .andExpect(content().contentType(MediaType.APPLICATION_JSON))
                .andExpect(content().json("""
                        {"isbn":"9780199536559","title":"Walden","subtitle":"or, Life in the Woods",
                         "author":"Henry David Thoreau","published":"1854-08-09","price":7.25}""", true));
    }

    @Test
    void theApiLeavesOutWhatABookDoesNotHave() throws Exception {
        given(catalog.search("emma")).willReturn(List.of(EMMA));

        mvc.perform(get("/api/books").param("q", "emma"))
                .andExpect(jsonPath("$[0].title").value("Emma"))
                .andExpect(jsonPath("$[0].subtitle").doesNotExist());
    }

    @Test
    void anUnknownBookIsNotFound() throws Exception {
        given(catalog.book("0")).willThrow(new BookNotFoundException("0"));

        mvc.perform(get("/api/books/0")).andExpect(status().isNotFound());
        mvc.perform(get("/books/0")).andExpect(status().isNotFound());
    }

    @Test
    void aBooksPageIsRenderedInTheLanguagePicked() throws Exception {
        given(catalog.book(WALDEN.isbn())).willReturn(WALDEN);

        mvc.perform(get("/books/" + WALDEN.isbn()).param("lang", "de").header(HttpHeaders.ACCEPT_LANGUAGE, "en"))
                .andExpect(status().isOk())
                .andExpect(view().name("book"))
                .andExpect(cookie().value("bookshop-lang", "de"))
                .andExpect(content().string(Matchers.containsString("Erschienen am 9 August 1854")));
    }
}
