//! chancery: the app (eframe/egui) and the command line of Chancery, a tabletop companion
//! for card-driven strategy games. Both drive `chancery-core` by commands only.

#![warn(missing_docs)]

pub mod cli;
pub mod games;
pub mod gui;
