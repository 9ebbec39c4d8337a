/// plein's version.
public enum PleinVersion {
    /// Also the version of the Debian package and the release archive (`make dist`), and the one
    /// the CI that `plein new ci` writes installs.
    public static let number = "0.3.0"
}
