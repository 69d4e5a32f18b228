//! The input strategies on a hand-written schema whose guarded code needs a keyword and
//! a number in a generated struct: comparison feedback and the dictionary get there,
//! havoc does not, in the same trials.
//!
//! The run-time's active mutant is process-global: every test takes `LOCK`.

use std::sync::{Arc, Mutex};

use mutfuzz::{Campaign, CampaignConfig, Dictionary, DictionaryEdit, Gen, Informed, MutantInfo};
use mutfuzz_rt::{PROBE, at, at_probe, compared, enter, infect_if};

static LOCK: Mutex<()> = Mutex::new(());

#[derive(Debug, Gen)]
struct Cmd {
    name: String,
    code: u16,
    arg: u8,
}

// site 1: mutant 1, `name == "magic-keyword"` → `!=`
// site 2: mutant 2, `code == 0x5eed` → `!=`
// site 3: mutant 3, behind both: `arg + 1` → `arg`
fn target(c: Cmd) -> u16 {
    let __m = enter();
    let magic = {
        let (__l, __r) = (&(c.name), &("magic-keyword"));
        match at_probe(__m, 1, 1) {
            1 => __l != __r,
            PROBE => {
                compared(__l, __r);
                let __o = __l == __r;
                infect_if(1, (__l != __r) != __o);
                __o
            }
            _ => __l == __r,
        }
    };
    if !magic {
        return 0;
    }
    let seed = {
        let (__l, __r) = (&(c.code), &(0x5eedu16));
        match at_probe(__m, 2, 1) {
            1 => __l != __r,
            PROBE => {
                compared(__l, __r);
                let __o = __l == __r;
                infect_if(2, (__l != __r) != __o);
                __o
            }
            _ => __l == __r,
        }
    };
    if !seed {
        return 1;
    }
    match at(__m, 3, 1) {
        1 => u16::from(c.arg),
        _ => u16::from(c.arg) + 1,
    }
}

/// Seeds (of 4) in which a campaign of `trials` with `edit` killed mutant 3.
fn successes(trials: u64, dictionary: Option<f64>, edit: impl Fn() -> Informed) -> usize {
    let _l = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mutants = vec![MutantInfo::new(1, 1), MutantInfo::new(2, 2), MutantInfo::new(3, 3)];
    (0..4)
        .filter(|&seed| {
            let words = Arc::new(Dictionary::new(vec!["magic-keyword".into()], vec![], vec![0x5eed], 0.1));
            let config =
                CampaignConfig { seed, dictionary: dictionary.map(|_| words), ..CampaignConfig::default() };
            let mut c = Campaign::new(config, mutants.clone(), target).unwrap().with_edit(Box::new(edit()));
            c.run_trials(trials).unwrap();
            c.kills().iter().any(|k| k.mutant == 3)
        })
        .count()
}

#[test]
fn comparison_feedback_and_the_dictionary_reach_code_that_havoc_does_not() {
    let trials = 3000;
    assert_eq!(successes(trials, None, Informed::new), 0, "havoc");
    assert_eq!(successes(trials, None, || Informed::new().with_compare(0.2)), 4, "compare");
    let words = Arc::new(Dictionary::new(vec!["magic-keyword".into()], vec![], vec![0x5eed], 0.1));
    let dictionary = || Informed::new().with_dictionary(DictionaryEdit::new(words.clone()), 0.1);
    assert_eq!(successes(trials, Some(0.1), dictionary), 4, "dictionary");
}
