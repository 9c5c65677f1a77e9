//! Account passwords: Argon2id at OWASP's parameters (m=19456 KiB, t=2, p=1, which are the argon2
//! crate's defaults) and the NIST SP 800-63B-4 length policy.

use anyhow::anyhow;
use argon2::password_hash::phc::PasswordHash;
use argon2::{ARGON2ID_IDENT, Argon2, Params, PasswordHasher, PasswordVerifier};

use super::api_key::random_base62;

/// Without MFA, NIST SP 800-63B-4 asks for at least 15 characters.
const MIN_CHARS: usize = 15;
/// Argon2 takes any length; the cap only bounds the work one login request can cause.
const MAX_CHARS: usize = 1024;
/// 24 base62 characters carry ≈143 bits.
const GENERATED_CHARS: usize = 24;
/// Hashes come from our own database, but a corrupted or planted row must not make a login
/// allocate gigabytes or spin: costs beyond these are refused instead of computed.
const MAX_M_COST_KIB: u32 = 256 * 1024;
const MAX_T_COST: u32 = 16;
const MAX_P_COST: u32 = 16;

/// A valid Argon2id hash at the current parameters, of [`DUMMY_PASSWORD`]. It belongs to no
/// account: a login for an unknown email is refused whatever the password.
const DUMMY_PHC: &str = "$argon2id$v=19$m=19456,t=2,p=1$CeEIkyuB9kb5c3lPgkukVA$q2Xmp8YZCqooEnJ2CEuBfNIegSjAKGbw/jAmJPmKJzw";
#[cfg(test)]
const DUMMY_PASSWORD: &str = "regintel dummy password";

/// The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`) of `password`, with a fresh
/// random salt.
pub fn hash(password: &str) -> anyhow::Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|phc| phc.to_string())
        .map_err(|err| anyhow!("cannot hash the password: {err}"))
}

/// Whether `password` matches the PHC string `phc`. A malformed hash, another algorithm or
/// excessive costs give `false`.
pub fn verify(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|parsed| {
        acceptable(&parsed)
            && Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
    })
}

/// Only Argon2id within the cost limits is worth computing.
fn acceptable(hash: &PasswordHash) -> bool {
    hash.algorithm == ARGON2ID_IDENT
        && Params::try_from(hash).is_ok_and(|params| {
            params.m_cost() <= MAX_M_COST_KIB
                && params.t_cost() <= MAX_T_COST
                && params.p_cost() <= MAX_P_COST
        })
}

/// Spends the time of one real verification, for logins with an unknown email, so response
/// times do not reveal which emails have accounts.
pub fn verify_dummy(password: &str) {
    std::hint::black_box(verify(password, DUMMY_PHC));
}

/// Length limits only: NIST and OWASP advise against composition rules. Characters are counted,
/// not bytes, so non-Latin passwords are not penalised.
pub fn check_policy(password: &str) -> Result<(), String> {
    let chars = password.chars().count();
    if chars < MIN_CHARS {
        Err(format!(
            "the password must have at least {MIN_CHARS} characters"
        ))
    } else if chars > MAX_CHARS {
        Err(format!(
            "the password must have at most {MAX_CHARS} characters"
        ))
    } else {
        Ok(())
    }
}

/// A random password (for accounts created by the operator), shown once.
pub fn generate() -> String {
    random_base62(GENERATED_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_owasps() {
        let params = Argon2::default().params().clone();
        assert_eq!(params.m_cost(), 19456);
        assert_eq!(params.t_cost(), 2);
        assert_eq!(params.p_cost(), 1);
        let phc = hash("correct horse battery staple").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
    }

    #[test]
    fn hash_verifies_the_right_password_only() {
        let phc = hash("correct horse battery staple").unwrap();
        assert!(verify("correct horse battery staple", &phc));
        assert!(!verify("correct horse battery stapler", &phc));
        assert!(!verify("", &phc));
        assert_ne!(phc, hash("correct horse battery staple").unwrap(), "salted");
        let unicode = hash("пароль-с-юникодом-🔑").unwrap();
        assert!(verify("пароль-с-юникодом-🔑", &unicode));
    }

    #[test]
    fn malformed_or_unacceptable_hashes_are_false() {
        let phc = hash("correct horse battery staple").unwrap();
        for bad in [
            String::new(),
            "not a hash".to_owned(),
            "$argon2id$".to_owned(),
            phc[..phc.len() - 5].to_owned(),
            phc.replace("$v=19$", "$v=99$"),
            phc.replace("argon2id", "argon2i"),
            phc.replace("argon2id", "scrypt"),
            phc.replace("m=19456", "m=4194304"),
            phc.replace("t=2", "t=1000"),
            phc.replace("m=19456", "m=-1"),
            format!("{phc}$extra"),
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$".to_owned(),
        ] {
            assert!(!verify("correct horse battery staple", &bad), "{bad}");
        }
    }

    #[test]
    fn only_argon2id_within_cost_limits_is_computed() {
        let phc = hash("correct horse battery staple").unwrap();
        let acceptable_str = |phc: &str| acceptable(&PasswordHash::new(phc).unwrap());
        assert!(acceptable_str(&phc));
        assert!(acceptable_str(&phc.replace("m=19456", "m=262144")));
        assert!(!acceptable_str(&phc.replace("m=19456", "m=262145")));
        assert!(!acceptable_str(&phc.replace("t=2", "t=17")));
        assert!(!acceptable_str(&phc.replace("p=1", "p=17")));
        assert!(!acceptable_str(&phc.replace("argon2id", "argon2i")));
        assert!(!acceptable_str(&phc.replace("argon2id", "argon2d")));
    }

    #[test]
    fn dummy_hash_is_valid_at_current_parameters() {
        let parsed = PasswordHash::new(DUMMY_PHC).unwrap();
        assert_eq!(parsed.algorithm, ARGON2ID_IDENT);
        let fresh = hash("x").unwrap();
        let fresh = Params::try_from(&PasswordHash::new(&fresh).unwrap()).unwrap();
        assert_eq!(Params::try_from(&parsed).unwrap(), fresh);
        // The dummy is a real hash: verifying against it does the whole work (a matching
        // password is the proof), so an unknown email costs what a wrong password does.
        assert!(verify(DUMMY_PASSWORD, DUMMY_PHC));
        assert!(!verify("", DUMMY_PHC));
    }

    #[test]
    fn policy_counts_characters() {
        assert!(check_policy(&"a".repeat(14)).is_err());
        assert_eq!(check_policy(&"a".repeat(15)), Ok(()));
        // 14 two-byte characters are 28 bytes but still too short; 15 are enough.
        assert!(check_policy(&"é".repeat(14)).is_err());
        assert_eq!(check_policy(&"é".repeat(15)), Ok(()));
        assert_eq!(check_policy(&"🔑".repeat(15)), Ok(()));
        assert_eq!(check_policy(&"a".repeat(1024)), Ok(()));
        let err = check_policy(&"a".repeat(1025)).unwrap_err();
        assert!(err.contains("at most 1024"), "{err}");
        let err = check_policy("short").unwrap_err();
        assert!(err.contains("at least 15 characters"), "{err}");
        // No composition rules: spaces and a single character class are fine.
        assert_eq!(check_policy("all lowercase words here"), Ok(()));
    }

    #[test]
    fn generated_passwords_pass_the_policy() {
        let password = generate();
        assert_eq!(password.chars().count(), 24);
        assert_eq!(check_policy(&password), Ok(()));
        assert_ne!(password, generate());
    }
}
