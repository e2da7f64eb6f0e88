internal import CAlmanacVersion

/// The version of this build: what `almanac --version` prints, the SARIF report's tool version
/// and the PRODID of calendars Almanac makes. A release's is its git tag (Scripts/release.sh);
/// a build from a clone without it is "0.0.0-dev".
public enum AlmanacVersion {
    public static let current = String(cString: almanac_version())
}
