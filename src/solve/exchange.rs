//! How the processes of one enumeration talk: an all-to-all of index lists, an all-gather
//! (what the two-player engine's processes share of each tier), sums, and a barrier. [`Single`] is the one-process case (nothing to send); with the cargo feature
//! `mpi`, `Mpi` runs over an MPI communicator (rsmpi, the `mpi` crate), so the same engine
//! runs as `mpirun -np N gamedb enumerate ...` or under Slurm's `srun`.

use crate::Result;

/// The collective operations the engine needs. Every process calls them in the same order.
pub trait Exchange {
    /// This process's number, `0..size()`.
    fn rank(&self) -> usize;
    /// Number of processes.
    fn size(&self) -> usize;
    /// Sends `sends[p]` to process `p` and returns everything received, in the order of the
    /// senders (for every process, including this one: `sends[rank()]` comes back).
    fn all_to_all(&self, sends: &[Vec<u64>]) -> Result<Vec<u64>>;
    /// Sends `mine` to every process and returns every process's, one after the other by
    /// sender (this process's own included), with the length of each.
    fn all_gather(&self, mine: &[u64]) -> Result<(Vec<u64>, Vec<usize>)>;
    /// Element-wise sums over all processes.
    fn sum(&self, values: &[u64]) -> Result<Vec<u64>>;
    /// Waits until every process has arrived.
    fn barrier(&self) -> Result<()>;

    /// True when `flag` is true on some process.
    fn any(&self, flag: bool) -> Result<bool> {
        Ok(self.sum(&[flag as u64])?[0] > 0)
    }
}

/// One process alone.
pub struct Single;

impl Exchange for Single {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn all_to_all(&self, sends: &[Vec<u64>]) -> Result<Vec<u64>> {
        Ok(sends[0].clone())
    }
    fn all_gather(&self, mine: &[u64]) -> Result<(Vec<u64>, Vec<usize>)> {
        Ok((mine.to_vec(), vec![mine.len()]))
    }
    fn sum(&self, values: &[u64]) -> Result<Vec<u64>> {
        Ok(values.to_vec())
    }
    fn barrier(&self) -> Result<()> {
        Ok(())
    }
}

/// Most `u64`s one MPI message carries: MPI counts and displacements are 32-bit `int`s, so a
/// larger exchange goes in several rounds of at most this many per destination.
#[cfg(feature = "mpi")]
const MPI_CHUNK: usize = 1 << 26;

#[cfg(feature = "mpi")]
pub(crate) use with_mpi::Mpi;

#[cfg(feature = "mpi")]
mod with_mpi {
    use mpi::collective::SystemOperation;
    use mpi::datatype::{Partition, PartitionMut};
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::*;
    use mpi::Count;

    use crate::solve::exchange::{Exchange, MPI_CHUNK};
    use crate::Result;

    /// The processes of `MPI_COMM_WORLD`.
    pub(crate) struct Mpi {
        world: SimpleCommunicator,
        /// Most words one process contributes to one all-gather round.
        round: usize,
        _universe: mpi::environment::Universe,
    }

    impl Mpi {
        /// At most `words` (at least 1) from each process in one all-gather round instead of
        /// 2^26 (a test hook: small pieces then take many rounds).
        pub(crate) fn with_round_words(mut self, words: usize) -> Mpi {
            self.round = words.clamp(1, MPI_CHUNK);
            self
        }

        /// Initializes MPI (once per process); `None` when it was initialized already.
        pub(crate) fn init() -> Option<Mpi> {
            let universe = mpi::initialize()?;
            let world = universe.world();
            Some(Mpi {
                world,
                round: MPI_CHUNK,
                _universe: universe,
            })
        }
    }

    impl Exchange for Mpi {
        fn rank(&self) -> usize {
            self.world.rank() as usize
        }

        fn size(&self) -> usize {
            self.world.size() as usize
        }

        fn all_to_all(&self, sends: &[Vec<u64>]) -> Result<Vec<u64>> {
            let p = self.size();
            let mut received = Vec::new();
            let mut sent = vec![0usize; p];
            // Displacements are `int`s too: a round carries less than 2^31 entries in all.
            let chunk = (i32::MAX as usize / p).min(MPI_CHUNK);
            loop {
                // This round's pieces: at most `chunk` entries for each destination.
                let counts: Vec<Count> = (0..p)
                    .map(|q| (sends[q].len() - sent[q]).min(chunk) as Count)
                    .collect();
                let mut incoming: Vec<Count> = vec![0; p];
                self.world.all_to_all_into(&counts[..], &mut incoming[..]);
                // Whether another round is needed is decided by all processes together: the
                // round below is a collective, and with three processes or more one of them
                // may have nothing to send or receive while two others still exchange (a
                // local decision left those two waiting for it forever).
                let mine = counts.iter().chain(&incoming).any(|&c| c > 0);
                if !self.any(mine)? {
                    return Ok(received);
                }
                let mut buf = Vec::with_capacity(counts.iter().map(|&c| c as usize).sum());
                for q in 0..p {
                    buf.extend_from_slice(&sends[q][sent[q]..sent[q] + counts[q] as usize]);
                    sent[q] += counts[q] as usize;
                }
                let displs: Vec<Count> = prefix(&counts);
                let rdispls: Vec<Count> = prefix(&incoming);
                let total: usize = incoming.iter().map(|&c| c as usize).sum();
                let start = received.len();
                received.resize(start + total, 0u64);
                {
                    let send = Partition::new(&buf[..], &counts[..], &displs[..]);
                    let mut recv =
                        PartitionMut::new(&mut received[start..], &incoming[..], &rdispls[..]);
                    self.world.all_to_all_varcount_into(&send, &mut recv);
                }
            }
        }

        fn all_gather(&self, mine: &[u64]) -> Result<(Vec<u64>, Vec<usize>)> {
            let p = self.size();
            let mut lens = vec![0u64; p];
            self.world
                .all_gather_into(&(mine.len() as u64), &mut lens[..]);
            let lens: Vec<usize> = lens.iter().map(|&l| l as usize).collect();
            let mut all = vec![0u64; lens.iter().sum()];
            // Counts and displacements are `int`s: pieces of more than `chunk` words go in
            // rounds, round k carrying words k·chunk.. of every piece (every process knows
            // every length, so all make the same rounds).
            let chunk = (i32::MAX as usize / p).min(self.round);
            let round = |at: usize| -> Vec<Count> {
                lens.iter()
                    .map(|&l| l.saturating_sub(at).min(chunk) as Count)
                    .collect()
            };
            if lens.iter().all(|&l| l <= chunk) {
                // One round, straight into place.
                let counts = round(0);
                let displs = prefix(&counts);
                let mut recv = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
                self.world.all_gather_varcount_into(mine, &mut recv);
                return Ok((all, lens));
            }
            let mut starts = Vec::with_capacity(p);
            let mut start = 0;
            for &l in &lens {
                starts.push(start);
                start += l;
            }
            let mut buf = Vec::new();
            let mut at = 0;
            while lens.iter().any(|&l| l > at) {
                let counts = round(at);
                let displs = prefix(&counts);
                buf.clear();
                buf.resize(counts.iter().map(|&c| c as usize).sum(), 0u64);
                let from = at.min(mine.len());
                {
                    let mut recv = PartitionMut::new(&mut buf[..], &counts[..], &displs[..]);
                    let piece = &mine[from..from + counts[self.rank()] as usize];
                    self.world.all_gather_varcount_into(piece, &mut recv);
                }
                for q in 0..p {
                    let (d, c) = (displs[q] as usize, counts[q] as usize);
                    // A piece already whole (c = 0) may end before `at`.
                    if c > 0 {
                        all[starts[q] + at..starts[q] + at + c].copy_from_slice(&buf[d..d + c]);
                    }
                }
                at += chunk;
            }
            Ok((all, lens))
        }

        fn sum(&self, values: &[u64]) -> Result<Vec<u64>> {
            let mut out = vec![0u64; values.len()];
            self.world
                .all_reduce_into(values, &mut out[..], SystemOperation::sum());
            Ok(out)
        }

        fn barrier(&self) -> Result<()> {
            self.world.barrier();
            Ok(())
        }
    }

    /// Displacements of consecutive pieces of the given sizes (below 2^31 in all).
    fn prefix(counts: &[Count]) -> Vec<Count> {
        let mut at = 0;
        counts
            .iter()
            .map(|&c| {
                let d = at;
                at += c;
                d
            })
            .collect()
    }
}
