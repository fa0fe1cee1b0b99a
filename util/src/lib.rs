//! Plumbing the toolkit's crates share, below the rules: [`atomic_write`] (files written whole
//! or not at all, and the checks made before long work that they can be), [`output_file`]
//! (what a command may write over), [`file_lock`] (one process at a time), [`input_file`] (inputs read with a size limit),
//! [`memory`] (requested counts checked against the machine's memory) and [`denormals`]
//! (threads, rayon pools included, that flush denormal floats to zero) and [`progress`] (the one
//! look of the progress bars the command-line tool draws) and [`shared_output`] (a writer
//! whose text can be read back, to capture what a component prints). All are public modules:
//! their functions' names need them.

pub mod atomic_write;
pub mod denormals;
pub mod file_lock;
pub mod input_file;
pub mod memory;
pub mod output_file;
pub mod progress;
pub mod shared_output;
