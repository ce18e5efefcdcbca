#include <sqlite3.h>

/* sqlite3_db_config is variadic, and Swift cannot call C variadic functions. */
static inline int shelf_sqlite_set_checkpoint_on_close(sqlite3 *db, int checkpoint) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, checkpoint ? 0 : 1, (int *)0);
}
