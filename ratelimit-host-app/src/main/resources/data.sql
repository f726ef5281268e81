insert into book (isbn, title, subtitle, author, published, price) values
  ('9780141439518', 'Pride and Prejudice', null, 'Jane Austen', '1813-01-28', 9.99),
  ('9780141439587', 'Emma', null, 'Jane Austen', '1815-12-23', 8.50),
  ('9780140449136', 'Crime and Punishment', null, 'Fyodor Dostoevsky', '1866-01-01', 12.00),
  ('9780199536559', 'Walden', 'or, Life in the Woods', 'Henry David Thoreau', '1854-08-09', 7.25);
