package dev.ratelimit.hostapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.dao.DataIntegrityViolationException;

/** The repository's queries, on the books data.sql puts in. */
@DataJpaTest
class BookRepositoryTest {

    @Autowired
    BookRepository books;

    @Test
    void findsABookByItsIsbn() {
        assertThat(books.findByIsbn("9780140449136")).hasValueSatisfying(book ->
                assertThat(book.getTitle()).isEqualTo("Crime and Punishment"));
        assertThat(books.findByIsbn("0")).isEmpty();
    }

    @Test
    void findsAnAuthorsBooksInTheOrderTheyAppeared() {
        assertThat(books.findByAuthorIgnoreCaseOrderByPublished("jane austen")).extracting(Book::getTitle)
                .containsExactly("Pride and Prejudice", "Emma");
    }

    @Test
    void searchesTitlesWhateverTheCase() {
        assertThat(books.searchTitles("AND")).extracting(Book::getTitle)
                .containsExactly("Crime and Punishment", "Pride and Prejudice");
    }

    @Test
    void anIsbnIsUnique() {
        Book saved = books.saveAndFlush(new Book("9780000000001", "Notes", "A. Writer", LocalDate.of(2020, 1, 1),
                new BigDecimal("1.00")));
        assertThat(saved.getId()).isNotNull();

        assertThatThrownBy(() -> books.saveAndFlush(new Book("9780000000001", "Copy", "B. Writer",
                LocalDate.of(2021, 1, 1), BigDecimal.TEN))).isInstanceOf(DataIntegrityViolationException.class);
    }
}
