//! Training the pattern evaluation: positions and labels from game records and
//! self-play, fitted stage by stage (`orca train`).

pub mod fit;
pub mod selfplay;
