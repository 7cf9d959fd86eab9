//! Rails' ActiveRecord against a real litewire process: the Ruby program
//! `tests/ruby/activerecord.rb` runs a migration (`create_table`,
//! `references` with a foreign key, a unique index, `timestamps`,
//! `add_column`, `change_column`, `create_schema` and a table in it), reads the
//! schema back (`indexes`, `primary_key`, `columns`, `foreign_keys`), and
//! drives models: `create!` and its id, nested creates, associations,
//! `includes`, a rolled-back `transaction`, `lock!`, unique and foreign-key
//! violations as their error classes, a model on the schema's table. Debian's
//! `ruby-activerecord` and `ruby-pg` (which `run-tests` installs). It passes
//! against PostgreSQL 15 too (`LITEWIRE_TEST_POSTGRES=... cargo test --test
//! activerecord -- --include-ignored`).

mod common;

use std::process::Command;

use common::clients;
use common::target::Target;

against_litewire_and_postgres!(a_first_day_with_activerecord);

async fn a_first_day_with_activerecord(target: &Target) {
    let script = clients::source_dir().join("tests/ruby/activerecord.rb");
    // A hung client fails the test rather than the run.
    let mut command = Command::new("timeout");
    command
        .arg("120")
        .arg("ruby")
        .arg(script)
        .env("DATABASE_URL", target.url());
    clients::assert_passes(&mut command, "activerecord");
}
