package dev.ratelimit.hostapp;

import java.math.BigDecimal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

@Controller
class BookController {

    private final Catalog catalog;
    private final Previews previews;

    BookController(Catalog catalog, Previews previews) {
        this.catalog = catalog;
        this.previews = previews;
    }

    @GetMapping("/books")
    String books(@RequestParam(required = false) String q, Model model) {
        model.addAttribute("books", q == null || q.isBlank() ? catalog.all() : catalog.search(q));
        return "books";
    }

    @GetMapping("/books/{isbn}")
    String book(@PathVariable String isbn, Model model) {
        model.addAttribute("book", catalog.book(isbn));
        return "book";
    }

    @GetMapping("/books/{isbn}/preview")
    String preview(@PathVariable String isbn, Model model) {
        model.addAttribute("book", catalog.book(isbn));
        model.addAttribute("sample", previews.sample(isbn));
        return "preview";
    }

    @PostMapping("/admin/books/{isbn}/price")
    String reprice(@PathVariable String isbn, @RequestParam BigDecimal price) {
        catalog.reprice(isbn, price);
        return "redirect:/books/" + isbn;
    }
}
