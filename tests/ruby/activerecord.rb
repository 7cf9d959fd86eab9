# Rails' ActiveRecord (Debian's ruby-activerecord, ruby-pg) on a first day:
# a migration, schema reflection, models with associations, transactions,
# row locks, errors, and a table in a schema of its own. Run by
# tests/activerecord.rs with DATABASE_URL; exits non-zero at the first
# difference from what PostgreSQL 15 answers.
require "active_record"

ActiveRecord::Base.establish_connection(ENV.fetch("DATABASE_URL"))
ActiveRecord::Migration.verbose = false

def check(what, got, want)
  return if got == want
  warn "#{what}: got #{got.inspect}, want #{want.inspect}"
  exit 1
end

class CreateShop < ActiveRecord::Migration[6.1]
  def change
    create_table :authors do |t|
      t.string :name, null: false
      t.timestamps
    end
    create_table :books do |t|
      t.references :author, foreign_key: true, null: false
      t.string :title
      t.integer :pages
      t.timestamps
    end
    add_index :books, :title, unique: true
    add_column :books, :price, :decimal, precision: 8, scale: 2
    change_column :books, :pages, :bigint
    create_schema :ledger
    create_table "ledger.entries" do |t|
      t.references :book, foreign_key: true
      t.integer :amount, null: false
    end
  end
end

class Author < ActiveRecord::Base
  has_many :books
end

class Book < ActiveRecord::Base
  belongs_to :author
  has_many :entries
end

class Entry < ActiveRecord::Base
  self.table_name = "ledger.entries"
  belongs_to :book
end

conn = ActiveRecord::Base.connection
conn.execute("DROP SCHEMA IF EXISTS ledger CASCADE")
%w[books authors schema_migrations ar_internal_metadata].each { |t| conn.drop_table(t, if_exists: true) }
CreateShop.migrate(:up)

check("indexes", conn.indexes(:books).map { |i| [i.name, i.columns, i.unique] },
      [["index_books_on_author_id", ["author_id"], false], ["index_books_on_title", ["title"], true]])
check("primary key", conn.primary_key(:books), "id")
check("columns", conn.columns(:books).map { |c| [c.name, c.sql_type, c.null] },
      [["id", "bigint", false], ["author_id", "bigint", false], ["title", "character varying", true],
       ["pages", "bigint", true], ["created_at", "timestamp(6) without time zone", false],
       ["updated_at", "timestamp(6) without time zone", false], ["price", "numeric(8,2)", true]])
check("foreign keys", conn.foreign_keys(:books).map { |f| [f.to_table, f.column] }, [["authors", "author_id"]])
check("schema table", conn.table_exists?("ledger.entries"), true)
check("schema primary key", conn.primary_key("ledger.entries"), "id")

ann = Author.create!(name: "Ann")
check("id after create!", ann.id, 1)
book = ann.books.create!(title: "One", pages: 10, price: 9.99)
check("nested create", [book.id, book.author_id, book.price.to_s], [1, 1, "9.99"])
check("association", Author.find(ann.id).books.map(&:title), ["One"])
check("includes with where", Author.includes(:books).where(books: { pages: 10 }).map(&:name), ["Ann"])
Book.transaction do
  Book.create!(author: ann, title: "Two")
  raise ActiveRecord::Rollback
end
check("rolled back", Book.count, 1)
book.with_lock { book.update!(pages: 11) }
check("lock! and update", Book.find(book.id).pages, 11)
begin
  Book.create!(author: ann, title: "One")
  check("unique violation", "no error", "ActiveRecord::RecordNotUnique")
rescue ActiveRecord::RecordNotUnique => e
  check("unique violation", e.class.name, "ActiveRecord::RecordNotUnique")
end
begin
  Book.create!(author_id: 99, title: "Orphan")
  check("foreign key violation", "no error", "ActiveRecord::InvalidForeignKey")
rescue ActiveRecord::InvalidForeignKey => e
  check("foreign key violation", e.class.name, "ActiveRecord::InvalidForeignKey")
end
Entry.create!(book: book, amount: 5)
Entry.create!(book: book, amount: -2)
check("schema table rows", Entry.where(book_id: book.id).sum(:amount), 3)
check("join across schemas", Book.joins(:entries).where(entries: { amount: 5 }).pluck(:title), ["One"])
book.destroy! rescue nil
check("destroy blocked by entries", Book.exists?(book.id), true)
Entry.delete_all
book.destroy!
check("destroyed", Book.count, 0)
conn.execute("DROP SCHEMA ledger CASCADE")
%w[books authors schema_migrations ar_internal_metadata].each { |t| conn.drop_table(t, if_exists: true) }
puts "activerecord: ok"
