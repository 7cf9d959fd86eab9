//! Schema reflection as ORMs and database tools do it, against a real litewire
//! process: SQLAlchemy 2's `inspect()` and its Core and ORM basics (over psycopg
//! 3, `tests/python/test_sqlalchemy.py`), and pgjdbc's `DatabaseMetaData`
//! (`tests/jdbc/Metadata.java`), each answered from the emulated catalog of a
//! real schema.

mod common;

use common::{TestServer, clients, python};

in_both_cache_modes!(
    sqlalchemy_inspect,
    sqlalchemy_core_and_orm,
    jdbc_database_metadata
);

async fn sqlalchemy_inspect(cache: &str) {
    let server = TestServer::start(cache, &[]);
    python::run_unittest(&server, cache, "test_sqlalchemy", "InspectTests");
}

async fn sqlalchemy_core_and_orm(cache: &str) {
    let server = TestServer::start(cache, &[]);
    python::run_unittest(&server, cache, "test_sqlalchemy", "CoreAndOrmTests");
}

/// The rows pgjdbc's metadata calls return, as `Metadata.java` prints them.
/// PostgreSQL 15 answers the same, except that it shows the default of `note`
/// as `'x'::text`.
const JDBC_METADATA: &str = "\
tables TABLE_SCHEM=public TABLE_NAME=child TABLE_TYPE=TABLE
tables TABLE_SCHEM=public TABLE_NAME=parent TABLE_TYPE=TABLE
tables TABLE_SCHEM=public TABLE_NAME=tag TABLE_TYPE=TABLE
tables TABLE_SCHEM=public TABLE_NAME=tagged TABLE_TYPE=TABLE
tables TABLE_SCHEM=public TABLE_NAME=v TABLE_TYPE=VIEW
columns COLUMN_NAME=id DATA_TYPE=4 TYPE_NAME=int4 COLUMN_SIZE=10 DECIMAL_DIGITS=0 NULLABLE=0 COLUMN_DEF=null ORDINAL_POSITION=1 IS_NULLABLE=NO
columns COLUMN_NAME=pid DATA_TYPE=4 TYPE_NAME=int4 COLUMN_SIZE=10 DECIMAL_DIGITS=0 NULLABLE=1 COLUMN_DEF=null ORDINAL_POSITION=2 IS_NULLABLE=YES
columns COLUMN_NAME=note DATA_TYPE=12 TYPE_NAME=text COLUMN_SIZE=2147483647 DECIMAL_DIGITS=0 NULLABLE=1 COLUMN_DEF='x' ORDINAL_POSITION=3 IS_NULLABLE=YES
columns COLUMN_NAME=amount DATA_TYPE=2 TYPE_NAME=numeric COLUMN_SIZE=10 DECIMAL_DIGITS=2 NULLABLE=1 COLUMN_DEF=null ORDINAL_POSITION=4 IS_NULLABLE=YES
columns COLUMN_NAME=flag DATA_TYPE=-7 TYPE_NAME=bool COLUMN_SIZE=1 DECIMAL_DIGITS=0 NULLABLE=0 COLUMN_DEF=null ORDINAL_POSITION=5 IS_NULLABLE=NO
primary TABLE_NAME=child COLUMN_NAME=id KEY_SEQ=1 PK_NAME=child_pkey
primary TABLE_NAME=tag COLUMN_NAME=a KEY_SEQ=1 PK_NAME=tag_pkey
primary TABLE_NAME=tag COLUMN_NAME=b KEY_SEQ=2 PK_NAME=tag_pkey
imported PKTABLE_NAME=tag PKCOLUMN_NAME=a FKTABLE_NAME=tagged FKCOLUMN_NAME=ta KEY_SEQ=1 UPDATE_RULE=0 DELETE_RULE=3 FK_NAME=tagged_ta_tb_fkey PK_NAME=tag_pkey
imported PKTABLE_NAME=tag PKCOLUMN_NAME=b FKTABLE_NAME=tagged FKCOLUMN_NAME=tb KEY_SEQ=2 UPDATE_RULE=0 DELETE_RULE=3 FK_NAME=tagged_ta_tb_fkey PK_NAME=tag_pkey
index INDEX_NAME=tag_pkey NON_UNIQUE=false ORDINAL_POSITION=1 COLUMN_NAME=a ASC_OR_DESC=A
index INDEX_NAME=tag_pkey NON_UNIQUE=false ORDINAL_POSITION=2 COLUMN_NAME=b ASC_OR_DESC=A
imported PKTABLE_NAME=parent PKCOLUMN_NAME=id FKTABLE_NAME=child FKCOLUMN_NAME=pid KEY_SEQ=1 UPDATE_RULE=3 DELETE_RULE=0 FK_NAME=child_pid_fkey PK_NAME=parent_pkey
exported PKTABLE_NAME=parent FKTABLE_NAME=child FKCOLUMN_NAME=pid FK_NAME=child_pid_fkey
index INDEX_NAME=child_pkey NON_UNIQUE=false ORDINAL_POSITION=1 COLUMN_NAME=id ASC_OR_DESC=A
index INDEX_NAME=child_pid NON_UNIQUE=true ORDINAL_POSITION=1 COLUMN_NAME=pid ASC_OR_DESC=A
index INDEX_NAME=parent_name_key NON_UNIQUE=false ORDINAL_POSITION=1 COLUMN_NAME=name ASC_OR_DESC=A
index INDEX_NAME=parent_pkey NON_UNIQUE=false ORDINAL_POSITION=1 COLUMN_NAME=id ASC_OR_DESC=A
";

async fn jdbc_database_metadata(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let mut command = clients::jdbc_program("Metadata.java");
    command.arg(server.pg.port().to_string());
    let printed = clients::run_to_success(command, &server, "pgjdbc DatabaseMetaData");
    assert_eq!(printed, JDBC_METADATA);
}
