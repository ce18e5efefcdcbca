import CInterrupt

/// Ctrl-C, as the host's calls see it. The signal handler (CInterrupt) only sets a `sig_atomic_t`; this reads it
/// from any thread, so an HTTP transfer or a plugin call in flight can stop.
public enum Interrupt {
    /// Ctrl-C was pressed; setting it by hand asks the same of every call in flight (or clears it).
    public static var requested: Bool {
        get { shelf_interrupt_requested() != 0 }
        set { shelf_interrupt_set(newValue ? 1 : 0) }
    }

    /// Installs the handler: the first Ctrl-C asks every call in flight to stop, a second ends shelf (exit 130).
    public static func install() { shelf_interrupt_install() }
}
