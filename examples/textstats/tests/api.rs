use textstats::stats::{mean_word_len, word_count};
use textstats::{greet, parallel_sum_of_squares};

#[test]
fn greet_says_hello() {
    assert_eq!(greet("ann"), "hello, ann");
}

#[test]
fn squares_are_summed_across_threads() {
    assert_eq!(parallel_sum_of_squares(&[1, 2, 3, 4]), 30);
}

#[test]
fn words_are_counted_and_measured() {
    assert_eq!(word_count("a bb ccc"), 3);
    assert_eq!(mean_word_len("a bb ccc"), Some(2));
    assert_eq!(mean_word_len("   "), None);
}
