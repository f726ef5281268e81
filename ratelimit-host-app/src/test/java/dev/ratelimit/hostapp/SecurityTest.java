package dev.ratelimit.hostapp;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.servlet.MockMvc;

/** Who may do what: the catalogue is public, the account page needs a sign-in, repricing an admin. */
@BookshopTest
class SecurityTest {

    @Autowired
    MockMvc mvc;

    @Autowired
    Catalog catalog;

    @Test
    void theCatalogueIsPublic() throws Exception {
        mvc.perform(get("/books")).andExpect(status().isOk());
        mvc.perform(get("/api/books/9780141439518")).andExpect(status().isOk());
    }

    @Test
    void theAccountPageSendsAVisitorToTheLoginPage() throws Exception {
        mvc.perform(get("/account").header(HttpHeaders.ACCEPT, "text/html"))
                .andExpect(status().isFound())
                .andExpect(redirectedUrl("/login"));
        mvc.perform(get("/login").header(HttpHeaders.ACCEPT_LANGUAGE, "de"))
                .andExpect(status().isOk())
                .andExpect(content().string(Matchers.containsString("Benutzername")));
    }

    @Test
    void aCustomerSignsInWithTheForm() throws Exception {
        mvc.perform(formLogin("/login").user("reader").password("reader-secret"))
                .andExpect(authenticated().withUsername("reader"))
                .andExpect(redirectedUrl("/account"));
        mvc.perform(formLogin("/login").user("reader").password("wrong"))
                .andExpect(unauthenticated())
                .andExpect(redirectedUrl("/login?error"));
    }

    @Test
    void aSignedInCustomerSeesTheirAccount() throws Exception {
        mvc.perform(get("/account").with(user("reader").roles("CUSTOMER")).header(HttpHeaders.ACCEPT_LANGUAGE, "fr"))
                .andExpect(status().isOk())
                .andExpect(content().string(Matchers.containsString("Bonjour, reader !")));
    }

    @Test
    void onlyAnAdminReprices() throws Exception {
        String emma = "9780141439587";
        var price = catalog.book(emma).price();
        try {
            mvc.perform(post("/admin/books/" + emma + "/price").param("price", "1.00")
                            .with(user("reader").roles("CUSTOMER")).with(csrf()))
                    .andExpect(status().isForbidden());
            mvc.perform(post("/admin/books/" + emma + "/price").param("price", "1.00")
                            .with(user("ops").roles("CUSTOMER", "ADMIN")))
                    .andExpect(status().isForbidden());

            mvc.perform(post("/admin/books/" + emma + "/price").param("price", "6.50")
                            .with(user("ops").roles("CUSTOMER", "ADMIN")).with(csrf()))
                    .andExpect(redirectedUrl("/books/" + emma));
            mvc.perform(get("/books/" + emma).header(HttpHeaders.ACCEPT_LANGUAGE, "en"))
                    .andExpect(content().string(Matchers.containsString("Price: 6.50")));
        } finally {
            catalog.reprice(emma, price);
        }
    }
}
