/*
 * The system's SQLite (Debian libsqlite3-dev) for the runner's state store: imported `internal`
 * by RunnerState/SQLite/SQLiteConnection.swift alone.
 */
#include <sqlite3.h>
