package dev.ratelimit.hostapp;

import java.math.BigDecimal;
import java.util.List;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The catalogue: a book's page is read far more often than a price changes, so books are cached by ISBN. */
@Service
public class Catalog {

    public static final String BOOKS = "books";

    private final BookRepository books;

    Catalog(BookRepository books) {
        this.books = books;
    }

    @Cacheable(BOOKS)
    @Transactional(readOnly = true)
    public BookView book(String isbn) {
        return books.findByIsbn(isbn).map(BookView::of).orElseThrow(() -> new BookNotFoundException(isbn));
    }

    @Transactional(readOnly = true)
    public List<BookView> all() {
        return books.findAll().stream().map(BookView::of).toList();
    }

    @Transactional(readOnly = true)
    public List<BookView> search(String word) {
        return books.searchTitles(word).stream().map(BookView::of).toList();
    }

    @CacheEvict(cacheNames = BOOKS, key = "#isbn")
    @Transactional
    public void reprice(String isbn, BigDecimal price) {
        books.findByIsbn(isbn).orElseThrow(() -> new BookNotFoundException(isbn)).setPrice(price);
    }
}
