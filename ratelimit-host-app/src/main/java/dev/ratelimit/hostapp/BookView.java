package dev.ratelimit.hostapp;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;

/** A book as the pages and the JSON API show it; serializable, since the JCache cache stores by value. */
public record BookView(String isbn, String title, String subtitle, String author, LocalDate published,
                       BigDecimal price) implements Serializable {

    static BookView of(Book book) {
        return new BookView(book.getIsbn(), book.getTitle(), book.getSubtitle(), book.getAuthor(), book.getPublished(),
                book.getPrice());
    }
}
