-- One row into a table whose primary key is a serial (an ORM's usual
-- table), the key left to its sequence: bench/instructions.sh SCRIPT=.
INSERT INTO serial_rows (note) VALUES ('a row');
