//! A small deterministic generator (SplitMix64, https://prng.di.unimi.it/splitmix64.c): samples of
//! requests that are the same on every machine and every run. Shared by the answer digests and
//! the load bench (`benches/load.rs` includes this file).

pub struct Sample(pub u64);

impl Sample {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}
