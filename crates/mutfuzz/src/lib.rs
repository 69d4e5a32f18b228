//! Mutation-guided fuzzing engine (under construction).
