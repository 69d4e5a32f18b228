//! What a campaign found and keeps: its kills, the failures of the original, the panics
//! by contract of a generated target and those of a background mutant, and the
//! [`Store`] that writes them to the campaign directory (its kept inputs handed to the
//! corpus's owner instead, when there is one: [`HandOver`]).

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use mutfuzz_contract::{CampaignDir, ContractPanicRecord, FailureRecord, KillRecord, read_jsonl};

use crate::config::CampaignConfig;
use crate::corpus::{HandOver, Store};
use crate::error::Error;
use crate::input::Input;
use crate::oracle::content_name;

/// An input on which the original panicked: a bug in the code under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The failing input's bytes.
    pub input: Input,
    /// Its name (content hash); the file name under `failures/`.
    pub name: String,
    /// The panic message.
    pub message: String,
    /// Where it panicked (`file:line:column`), when known.
    pub location: Option<String>,
    /// The trial, from 0, that found it.
    pub trial: u64,
}

impl Failure {
    /// Its line in `failures.jsonl`.
    pub fn record(&self) -> FailureRecord {
        FailureRecord {
            input: self.name.clone(),
            message: self.message.clone(),
            location: self.location.clone(),
            trial: self.trial,
            mutant: None,
        }
    }
}

/// How many failures of the original a campaign with a directory keeps in memory (all
/// are on disk): a message may hold a whole input and its outcome, and an hour's campaign
/// can find hundreds.
pub const HELD_FAILURES: usize = 16;

/// A campaign's findings, in memory and (with a directory) on disk.
pub(crate) struct Findings {
    /// Where they are written; `None` keeps them in memory only.
    pub(crate) store: Option<Store>,
    /// Takes the inputs to keep in the store's stead, when the corpus is another's.
    pub(crate) hand_over: Option<HandOver>,
    /// The first kill of each killed mutant, in the order found.
    pub(crate) kills: Vec<KillRecord>,
    /// Distinct failures of the original, in the order found: every one without a
    /// directory, the first [`HELD_FAILURES`] with one.
    pub(crate) failures: Vec<Failure>,
    /// How many distinct failures were recorded, held or not.
    pub(crate) failure_count: usize,
    /// The failures' messages recorded (and the background mutant's panics', with its
    /// id), by hash: the messages themselves can be large, and only whether one was seen
    /// matters.
    failure_messages: HashSet<u64>,
    /// The panics by contract's messages recorded (this process's and, resumed, before),
    /// by hash.
    contract_messages: HashSet<u64>,
}

/// What the sets of seen messages hold: a 64-bit hash (`DefaultHasher::new` has fixed
/// keys, so a message hashes alike in every process).
fn message_hash(mutant: Option<u32>, message: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    mutant.hash(&mut hasher);
    message.hash(&mut hasher);
    hasher.finish()
}

impl Findings {
    /// Opens the configured directory, if any (the corpus in `corpus_dir` or its own).
    pub(crate) fn open(config: &CampaignConfig) -> Result<Findings, Error> {
        let store = match &config.dir {
            Some(dir) => {
                let corpus = config.corpus_dir.clone().unwrap_or_else(|| CampaignDir::new(dir).corpus());
                Some(Store::open_with_corpus(dir, &corpus)?)
            }
            None => None,
        };
        Ok(Findings {
            store,
            hand_over: None,
            kills: Vec::new(),
            failures: Vec::new(),
            failure_count: 0,
            failure_messages: HashSet::new(),
            contract_messages: HashSet::new(),
        })
    }

    /// Reads back the panics by contract recorded before (a restarted harness).
    pub(crate) fn resume_contract_panics(&mut self) -> Result<(), Error> {
        let Some(store) = &self.store else { return Ok(()) };
        let panics = read_jsonl::<ContractPanicRecord>(&store.files().contract_panic_log())?;
        self.contract_messages.extend(panics.records.iter().map(|r| message_hash(None, &r.message)));
        Ok(())
    }

    /// Reads back the failures and the background mutant's panics recorded before (a
    /// restarted harness, a resumed campaign): their messages are known, and the failures
    /// counted.
    pub(crate) fn resume_failures(&mut self) -> Result<(), Error> {
        let Some(store) = &self.store else { return Ok(()) };
        let files = store.files();
        let failures = read_jsonl::<FailureRecord>(&files.failure_log())?.records;
        let panics = read_jsonl::<FailureRecord>(&files.mutant_panic_log())?.records;
        for record in failures.iter().chain(&panics) {
            if self.failure_messages.insert(message_hash(record.mutant, &record.message))
                && record.mutant.is_none()
            {
                self.failure_count += 1;
            }
        }
        Ok(())
    }

    /// Stores an input under its name, or hands it over and returns once it is stored.
    pub(crate) fn save_input(&mut self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        let Some(store) = &self.store else { return Ok(()) };
        match &mut self.hand_over {
            None => {
                store.save_input(name, bytes)?;
            }
            // Stored before (a seed replayed after a restart): nothing to hand over.
            Some(_) if store.holds(name, bytes) => {}
            Some(hand_over) => hand_over(name, bytes)?,
        }
        Ok(())
    }

    /// Appends a kill to `kills.jsonl` (its input stored before).
    pub(crate) fn append_kill(&mut self, record: &KillRecord) -> Result<(), Error> {
        if let Some(store) = &mut self.store {
            store.append_kill(record)?;
        }
        Ok(())
    }

    /// Whether a failure with this message was recorded.
    pub(crate) fn knows_failure(&self, message: &str) -> bool {
        self.failure_messages.contains(&message_hash(None, message))
    }

    /// Whether a panic by contract with this message was recorded.
    pub(crate) fn knows_contract_panic(&self, message: &str) -> bool {
        self.contract_messages.contains(&message_hash(None, message))
    }

    /// Records a failure of the original.
    pub(crate) fn record_failure(
        &mut self,
        input: &Input,
        message: String,
        location: Option<String>,
        trial: u64,
    ) -> Result<(), Error> {
        let failure =
            Failure { input: input.clone(), name: content_name(input.as_bytes()), message, location, trial };
        if let Some(store) = &mut self.store {
            store.save_failure(&failure.name, input.as_bytes())?;
            store.append_failure(&failure.record())?;
        }
        self.failure_messages.insert(message_hash(None, &failure.message));
        self.failure_count += 1;
        if self.store.is_none() || self.failures.len() < HELD_FAILURES {
            self.failures.push(failure);
        }
        Ok(())
    }

    /// Records a panic by contract of a generated target's original with a new message.
    pub(crate) fn record_contract_panic(
        &mut self,
        input: &Input,
        message: String,
        location: Option<String>,
    ) -> Result<(), Error> {
        let name = content_name(input.as_bytes());
        if let Some(store) = &mut self.store {
            let record = ContractPanicRecord { input: name.clone(), message: message.clone(), location };
            store.save_contract_panic(&name, input.as_bytes(), &record)?;
        }
        self.contract_messages.insert(message_hash(None, &message));
        Ok(())
    }

    /// Keeps an input on which the background mutant panics and the original does not
    /// (once per message): it points at fault-prone code, and is no failure. Returns
    /// whether the message was new.
    pub(crate) fn record_mutant_panic(
        &mut self,
        input: &Input,
        mutant: u32,
        message: String,
        location: Option<String>,
        trial: u64,
    ) -> Result<bool, Error> {
        if !self.failure_messages.insert(message_hash(Some(mutant), &message)) {
            return Ok(false);
        }
        if let Some(store) = &mut self.store {
            let name = content_name(input.as_bytes());
            let record =
                FailureRecord { input: name.clone(), message, location, trial, mutant: Some(mutant) };
            store.save_mutant_panic(&name, input.as_bytes(), &record)?;
        }
        Ok(true)
    }
}
