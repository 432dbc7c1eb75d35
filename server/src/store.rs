//! The server's durable store: one SQLite database in the data folder (write-ahead log,
//! commits that survive a killed process). It holds the module archives by hash, the tables (module, spec),
//! every accepted input of each table in order, and the invitations. An input is committed
//! before the client that sent it hears it was taken, so a server killed at any moment and
//! started again on the same folder has every input it acknowledged.

use std::path::Path;

use chancery_core::{GameSpec, Input, SeatId};
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use crate::archive::Archive;
use crate::table::LoadChoice;

/// A connection to the store.
pub struct Store {
    db: Connection,
}

/// Who an invitation lets in, at a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A seat's player: acts for that seat, sees what it may see.
    Seat(SeatId),
    /// A spectator: sees what no seat hides, answers for nobody.
    Spectator,
    /// The host (the module's designer): sends new versions of the module, sees what a
    /// spectator sees.
    Host,
}

impl Role {
    fn column(&self) -> String {
        match self {
            Role::Seat(seat) => format!("seat:{seat}"),
            Role::Spectator => "spectator".to_owned(),
            Role::Host => "host".to_owned(),
        }
    }

    fn from_column(text: &str) -> Option<Role> {
        match text {
            "spectator" => Some(Role::Spectator),
            "host" => Some(Role::Host),
            _ => text
                .strip_prefix("seat:")
                .map(|s| Role::Seat(SeatId::from(s))),
        }
    }
}

/// Who an invitation lets in: a table, and in which role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The table.
    pub table: String,
    /// What it lets its holder do.
    pub role: Role,
}

/// A module version a table played: the archive's hash, the module's own version, and
/// from which input of the game on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayedVersion {
    /// The module archive's hash.
    pub hash: String,
    /// The module's own version (its manifest's).
    pub version: String,
    /// The game's inputs when the table began to play it.
    pub from_input: usize,
    /// When, in seconds since 1970.
    pub at: i64,
}

/// A stored table: its id, module archive hash and what it was started from.
#[derive(Clone, Debug)]
pub struct StoredTable {
    /// The table's id.
    pub id: String,
    /// Its module archive's hash.
    pub module: String,
    /// Its scenario, seed, seats and options.
    pub spec: GameSpec,
    /// Whose values its module plays with.
    pub load: LoadChoice,
    /// Who may take back a move.
    pub undo: crate::table::UndoRule,
}

impl Store {
    /// Opens (and makes, the first time) the store in folder `dir`.
    pub fn open(dir: &Path) -> anyhow::Result<Store> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot make the data folder {}: {e}", dir.display()))?;
        let db = Connection::open(dir.join("tables.sqlite"))?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        // In write-ahead-log mode, NORMAL commits survive a killed server process (the
        // log is written before a commit returns); only the operating system's own crash
        // may lose the last commits. FULL, an fsync a commit, made every answer wait on the
        // disk (p99 0.8 s at 100 seats on this machine).
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.busy_timeout(std::time::Duration::from_secs(10))?;
        db.execute_batch(
            "CREATE TABLE IF NOT EXISTS modules (hash TEXT PRIMARY KEY, archive TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, module TEXT NOT NULL,
                 spec TEXT NOT NULL, load TEXT NOT NULL, created INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS inputs (tbl TEXT NOT NULL, n INTEGER NOT NULL,
                 input TEXT NOT NULL, PRIMARY KEY (tbl, n));
             CREATE TABLE IF NOT EXISTS invitations (token_hash TEXT PRIMARY KEY,
                 tbl TEXT NOT NULL, role TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS chat (tbl TEXT NOT NULL, n INTEGER NOT NULL,
                 line TEXT NOT NULL, PRIMARY KEY (tbl, n));
             CREATE TABLE IF NOT EXISTS versions (tbl TEXT NOT NULL, hash TEXT NOT NULL,
                 version TEXT NOT NULL, from_input INTEGER NOT NULL, at INTEGER NOT NULL);",
        )?;
        // A store made before tables had an undo rule gets the column, each of its tables
        // the default rule.
        let has_undo = db
            .prepare("SELECT 1 FROM pragma_table_info('tables') WHERE name = 'undo'")?
            .exists([])?;
        if !has_undo {
            db.execute_batch(
                "ALTER TABLE tables ADD COLUMN undo TEXT NOT NULL DEFAULT '\"Mover\"'",
            )?;
        }
        Ok(Store { db })
    }

    /// Keeps a module archive (once per hash) and returns its hash.
    pub fn put_module(&self, archive: &Archive) -> anyhow::Result<String> {
        let hash = archive.hash();
        self.db.execute(
            "INSERT OR IGNORE INTO modules (hash, archive) VALUES (?1, ?2)",
            params![hash, serde_json::to_string(archive)?],
        )?;
        Ok(hash)
    }

    /// The module archive of `hash`.
    pub fn module(&self, hash: &str) -> anyhow::Result<Option<Archive>> {
        let text: Option<String> = self
            .db
            .query_row(
                "SELECT archive FROM modules WHERE hash = ?1",
                params![hash],
                |r| r.get(0),
            )
            .optional()?;
        Ok(match text {
            Some(text) => Some(serde_json::from_str(&text)?),
            None => None,
        })
    }

    /// Opens `table`, and its invitations: a token for each `(role, token)` given.
    pub fn create_table(
        &mut self,
        table: &StoredTable,
        invitations: &[(Role, String)],
    ) -> anyhow::Result<()> {
        let id = table.id.as_str();
        let tx = self.db.transaction()?;
        let now = now_seconds();
        tx.execute(
            "INSERT INTO tables (id, module, spec, load, created, undo) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                table.module,
                serde_json::to_string(&table.spec)?,
                serde_json::to_string(&table.load)?,
                now,
                serde_json::to_string(&table.undo)?
            ],
        )?;
        for (role, token) in invitations {
            tx.execute(
                "INSERT INTO invitations (token_hash, tbl, role) VALUES (?1, ?2, ?3)",
                params![token_hash(token), id, role.column()],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Table `id`, if the store holds it.
    pub fn table(&self, id: &str) -> anyhow::Result<Option<StoredTable>> {
        let row = self
            .db
            .query_row(
                "SELECT module, spec, load, undo FROM tables WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                },
            )
            .optional()?;
        let Some((module, spec, load, undo)) = row else {
            return Ok(None);
        };
        Ok(Some(StoredTable {
            id: id.to_owned(),
            module,
            spec: serde_json::from_str(&spec)?,
            load: serde_json::from_str(&load)?,
            undo: serde_json::from_str(&undo)?,
        }))
    }

    /// The inputs of `table`, in order.
    pub fn inputs(&self, table: &str) -> anyhow::Result<Vec<Input>> {
        self.json_rows("SELECT input FROM inputs WHERE tbl = ?1 ORDER BY n", table)
    }

    /// The JSON text `sql` selects for `table`, one row each, read as `T`.
    fn json_rows<T: serde::de::DeserializeOwned>(
        &self,
        sql: &str,
        table: &str,
    ) -> anyhow::Result<Vec<T>> {
        let mut query = self.db.prepare(sql)?;
        let rows = query.query_map(params![table], |r| r.get::<_, String>(0))?;
        let mut values = Vec::new();
        for row in rows {
            values.push(serde_json::from_str(&row?)?);
        }
        Ok(values)
    }

    /// Appends `inputs` to `table` as its inputs `from`, `from + 1`, …, all or none, committed
    /// to disk before this returns.
    pub fn append(&mut self, table: &str, from: usize, inputs: &[Input]) -> anyhow::Result<()> {
        let tx = self.db.transaction()?;
        for (i, input) in inputs.iter().enumerate() {
            tx.execute(
                "INSERT INTO inputs (tbl, n, input) VALUES (?1, ?2, ?3)",
                params![table, (from + i) as i64, serde_json::to_string(input)?],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Takes back `table`'s inputs from its input `from` on, committed to disk before this
    /// returns.
    pub fn truncate(&mut self, table: &str, from: usize) -> anyhow::Result<()> {
        self.db.execute(
            "DELETE FROM inputs WHERE tbl = ?1 AND n >= ?2",
            params![table, from as i64],
        )?;
        Ok(())
    }

    /// Who `token` lets in, if it is an invitation. Tokens are kept as their SHA-256 only,
    /// and looked up by it: the store never holds a token a client could reuse.
    pub fn invitation(&self, token: &str) -> anyhow::Result<Option<Invitation>> {
        let found = self
            .db
            .query_row(
                "SELECT tbl, role FROM invitations WHERE token_hash = ?1",
                params![token_hash(token)],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
            )
            .optional()?;
        Ok(found.and_then(|(table, role)| {
            Role::from_column(&role).map(|role| Invitation { table, role })
        }))
    }

    /// Keeps `line` as the next line of `table`'s chat (its number set here), and only the
    /// last [`crate::chat::KEPT`] lines. Returns the line as kept.
    pub fn say(
        &mut self,
        table: &str,
        mut line: crate::chat::ChatLine,
    ) -> anyhow::Result<crate::chat::ChatLine> {
        let tx = self.db.transaction()?;
        let last: i64 = tx.query_row(
            "SELECT COALESCE(MAX(n), 0) FROM chat WHERE tbl = ?1",
            params![table],
            |r| r.get(0),
        )?;
        line.n = last as u64 + 1;
        tx.execute(
            "INSERT INTO chat (tbl, n, line) VALUES (?1, ?2, ?3)",
            params![table, line.n as i64, serde_json::to_string(&line)?],
        )?;
        tx.execute(
            "DELETE FROM chat WHERE tbl = ?1 AND n <= ?2",
            params![table, line.n as i64 - crate::chat::KEPT as i64],
        )?;
        tx.commit()?;
        Ok(line)
    }

    /// The chat of `table` kept, oldest first.
    pub fn chat(&self, table: &str) -> anyhow::Result<Vec<crate::chat::ChatLine>> {
        self.json_rows("SELECT line FROM chat WHERE tbl = ?1 ORDER BY n", table)
    }

    /// Table `table` plays the module of `hash` (its manifest's `version`) from now on, its
    /// game then `inputs` long.
    pub fn set_module(
        &mut self,
        table: &str,
        hash: &str,
        version: &str,
        inputs: usize,
    ) -> anyhow::Result<()> {
        self.db.execute(
            "UPDATE tables SET module = ?1 WHERE id = ?2",
            params![hash, table],
        )?;
        self.add_version(table, hash, version, inputs)
    }

    /// Notes that table `table` plays the module of `hash` from its input `inputs` on.
    pub fn add_version(
        &mut self,
        table: &str,
        hash: &str,
        version: &str,
        inputs: usize,
    ) -> anyhow::Result<()> {
        let at = now_seconds();
        self.db.execute(
            "INSERT INTO versions (tbl, hash, version, from_input, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![table, hash, version, inputs as i64, at],
        )?;
        Ok(())
    }

    /// The module versions table `table` has played, the first first.
    pub fn versions(&self, table: &str) -> anyhow::Result<Vec<PlayedVersion>> {
        let mut query = self.db.prepare(
            "SELECT hash, version, from_input, at FROM versions WHERE tbl = ?1 ORDER BY rowid",
        )?;
        let rows = query.query_map(params![table], |r| {
            Ok(PlayedVersion {
                hash: r.get(0)?,
                version: r.get(1)?,
                from_input: r.get::<_, i64>(2)? as usize,
                at: r.get(3)?,
            })
        })?;
        let versions: Vec<PlayedVersion> = rows.collect::<Result<_, _>>()?;
        if !versions.is_empty() {
            return Ok(versions);
        }
        // A table opened before versions were noted: the module it plays now.
        let now = self
            .db
            .query_row(
                "SELECT module, created FROM tables WHERE id = ?1",
                params![table],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
            )
            .optional()?;
        Ok(now
            .map(|(hash, at)| PlayedVersion {
                hash,
                version: "(not noted)".to_owned(),
                from_input: 0,
                at,
            })
            .into_iter()
            .collect())
    }
}

/// The time now, in seconds since 1970 (0 if the clock is before it).
pub fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A new unguessable token: 256 random bits from the operating system, in hex.
pub fn new_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
    Ok(hex::encode(bytes))
}

/// One write of a table's inputs, for the [`Writer`].
enum Write {
    /// Append inputs from `from` on.
    Append {
        table: String,
        from: usize,
        inputs: Vec<Input>,
    },
    /// Take back the inputs from `from` on.
    Truncate { table: String, from: usize },
}

/// The store's one writer of inputs: every table's answers are committed by one thread, and
/// those that arrive together go in one transaction (a group commit). Each is acknowledged
/// once it is committed. Tables that each wrote on their own connection waited on one
/// another's locks.
#[derive(Clone)]
pub struct Writer {
    sender: std::sync::mpsc::Sender<(Write, std::sync::mpsc::SyncSender<Result<(), String>>)>,
}

/// The most writes one transaction takes.
const GROUP: usize = 256;

impl Writer {
    /// Starts the writer of the store in folder `dir`.
    pub fn start(dir: &Path) -> anyhow::Result<Writer> {
        let mut store = Store::open(dir)?;
        let (sender, inbox) =
            std::sync::mpsc::channel::<(Write, std::sync::mpsc::SyncSender<Result<(), String>>)>();
        std::thread::Builder::new()
            .name("store writer".to_owned())
            .spawn(move || {
                while let Ok(first) = inbox.recv() {
                    let mut group = vec![first];
                    group.extend(inbox.try_iter().take(GROUP - 1));
                    let writes: Vec<&Write> = group.iter().map(|(w, _)| w).collect();
                    // One transaction for the group; if it fails, each write on its own, so
                    // that one bad write fails alone.
                    let results = match store.write_all(&writes) {
                        Ok(()) => vec![Ok(()); group.len()],
                        Err(_) => writes
                            .iter()
                            .map(|w| store.write_all(&[w]).map_err(|e| e.to_string()))
                            .collect(),
                    };
                    for ((_, done), result) in group.iter().zip(results) {
                        let _ = done.send(result);
                    }
                }
            })?;
        Ok(Writer { sender })
    }

    fn write(&self, write: Write) -> anyhow::Result<()> {
        let (done, committed) = std::sync::mpsc::sync_channel(1);
        self.sender
            .send((write, done))
            .map_err(|_| anyhow::anyhow!("the store's writer has stopped"))?;
        committed
            .recv()
            .map_err(|_| anyhow::anyhow!("the store's writer has stopped"))?
            .map_err(anyhow::Error::msg)
    }

    /// Appends `inputs` to `table` as its inputs `from`, `from + 1`, …, all or none,
    /// committed to disk before this returns.
    pub fn append(&self, table: &str, from: usize, inputs: &[Input]) -> anyhow::Result<()> {
        self.write(Write::Append {
            table: table.to_owned(),
            from,
            inputs: inputs.to_vec(),
        })
    }

    /// Takes back `table`'s inputs from its input `from` on, committed to disk before this
    /// returns.
    pub fn truncate(&self, table: &str, from: usize) -> anyhow::Result<()> {
        self.write(Write::Truncate {
            table: table.to_owned(),
            from,
        })
    }
}

impl Store {
    /// Carries out `writes` in one transaction.
    fn write_all(&mut self, writes: &[&Write]) -> anyhow::Result<()> {
        let tx = self.db.transaction()?;
        for write in writes {
            match write {
                Write::Append {
                    table,
                    from,
                    inputs,
                } => {
                    let mut insert = tx
                        .prepare_cached("INSERT INTO inputs (tbl, n, input) VALUES (?1, ?2, ?3)")?;
                    for (i, input) in inputs.iter().enumerate() {
                        insert.execute(params![
                            table,
                            (from + i) as i64,
                            serde_json::to_string(input)?
                        ])?;
                    }
                }
                Write::Truncate { table, from } => {
                    tx.prepare_cached("DELETE FROM inputs WHERE tbl = ?1 AND n >= ?2")?
                        .execute(params![table, *from as i64])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }
}
