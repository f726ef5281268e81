package dev.ratelimit.hostapp;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface BookRepository extends JpaRepository<Book, Long> {

    Optional<Book> findByIsbn(String isbn);

    List<Book> findByAuthorIgnoreCaseOrderByPublished(String author);

    @Query("select b from Book b where lower(b.title) like lower(concat('%', :word, '%')) order by b.title")
    List<Book> searchTitles(@Param("word") String word);
}
