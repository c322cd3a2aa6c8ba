# SQLite 3 (Debian's libsqlite3-dev) through pkg-config, for the transaction database
# (modules/core/tlm/sqlite_transaction_sink.*): imported target PkgConfig::GPUTLM_SQLITE3.
find_package(PkgConfig)
if(NOT TARGET PkgConfig::GPUTLM_SQLITE3)
  pkg_check_modules(GPUTLM_SQLITE3 QUIET IMPORTED_TARGET GLOBAL sqlite3)
  if(NOT GPUTLM_SQLITE3_FOUND)
    message(FATAL_ERROR "gputlm: SQLite 3 not found through pkg-config (sqlite3.pc). Install Debian's "
                        "libsqlite3-dev (tools/install-deps.sh does).")
  endif()
endif()
