package dev.ratelimit.hostapp;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/books")
class BookApiController {

    private final Catalog catalog;

    BookApiController(Catalog catalog) {
        this.catalog = catalog;
    }

    @GetMapping("/{isbn}")
    BookView book(@PathVariable String isbn) {
        return catalog.book(isbn);
    }

    @GetMapping
    List<BookView> search(@RequestParam String q) {
        return catalog.search(q);
    }
}
