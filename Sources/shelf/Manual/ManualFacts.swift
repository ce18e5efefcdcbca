/// What shelf(1) and shelf-plugin(7) say beside the commands: the options that come before a command, the
/// environment shelf reads, the files it keeps, and what a plugin author is given. Kept here, next to the
/// generator, because the command table has no place for them; each entry names the code that acts on it.
enum ManualFacts {
    static let purpose = "a reading host for library books, with formats and connectors as plugins"

    static let synopsis = "shelf [--plugin-path DIR]... COMMAND [ARGS] [--json]"

    static let description = """
        shelf opens e-books and audiobooks through plugins (EPUB 2 and 3, audiobook manifests, packages and M4B are
        bundled), borrows and reserves them from libraries that speak OPDS, keeps them on a bookshelf with your place,
        bookmarks and settings, reads them in the terminal or in the browser app (`shelf serve`), and plays audiobooks.

        Every command takes --json for output that scripts can rely on; errors go to standard error and say what went
        wrong, where, and what to do. `shelf help COMMAND` explains one command; this page lists them all.
        """

    /// The options main.swift reads before the command.
    static let globalOptions: [(syntax: String, meaning: String)] = [
        (
            "--plugin-path DIR",
            "Look for plugins in DIR (or load the one .so file named) before the usual places; repeatable."
        ),
        ("--json", "Print a JSON document instead of text (its shapes are in docs/json.md)."),
        ("--help", "Print the commands, or with a command what it does; `shelf help COMMAND` is the same."),
        ("--version", "Print shelf's version and the plugin ABI it hosts.")
    ]

    /// What shelf reads from the environment (ProcessEnvironment.shared and Shelf.environment).
    static let environment: [(name: String, meaning: String)] = [
        (
            "SHELF_HOME",
            "Keep everything under this folder (config/, data/, cache/) instead of the XDG folders: a test or portable shelf never touches the patron's own."
        ),
        (
            "XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME",
            "Where the folders below are, by the XDG base directory specification; HOME/.config, HOME/.local/share and HOME/.cache when unset."
        ),
        ("SHELF_PLUGIN_PATH", "Colon-separated folders or .so files searched for plugins after --plugin-path."),
        (
            "SHELF_LOG",
            "Which plugin messages go to standard error (warnings and errors by default): `debug` for every plugin, `org.example.fb2:debug` for one, `warning,org.example.*:info` for a family; levels debug, info, warning, error, none; the most specific entry wins."
        ),
        (
            "SHELF_PLUGINS_OUT_OF_PROCESS, SHELF_PLUGINS_IN_PROCESS",
            "Comma-separated plugin ids (or `all`) moved out of shelf's process into a sandboxed child, or into shelf's process; by default the plugins shelf ships run in process and every other plugin out of process (shelf-plugin(7), WHERE A PLUGIN RUNS)."
        ),
        (
            "SHELF_PLUGIN_TIMEOUT",
            "Seconds a plugin out of process may stay silent in one call before it is stopped (30 by default)."
        ),
        (
            "SHELF_PLUGIN_CALL_LIMIT",
            "Seconds one call of a plugin out of process may take in all, however much progress it reports, before it is stopped (600 by default)."
        ),
        (
            "SHELF_PLUGIN_MEMORY",
            "MiB of memory a plugin out of process may map (2048 by default; 0: no limit); a larger allocation fails in the plugin."
        ),
        (
            "SHELF_PLUGIN_CONFINEMENT",
            "`off` runs the plugins out of process without Landlock, seccomp and the memory limit, to tell whether the sandbox is what breaks a plugin."
        ),
        (
            "SHELF_PLUGIN_HOST",
            "The stand-in host `shelf conformance --memcheck` runs under valgrind, instead of shelf-plugin-host on the PATH."
        ),
        (
            "SHELF_SECRET_SERVICE",
            "`off` keeps sign-ins in a file of mode 0600 in the config folder even when a Secret Service runs."
        ),
        ("SHELF_DEADLINE", "Seconds a command waits in all for the network (20 by default)."),
        (
            "SHELF_HTTP_TIMEOUT, SHELF_HTTP_RETRIES",
            "Seconds one catalog request may take, and how often a failed one is tried again."
        ),
        (
            "SHELF_SERVE_PASSWORD",
            "The password `shelf serve --listen` asks a browser on another machine for, when --password-file is not given."
        ),
        ("SHELF_WEB_ROOT", "The folder of the browser app's files, instead of the installed share/shelf/web."),
        ("SHELF_BROWSER, BROWSER", "The program that opens a sign-in page or the browser app; xdg-open when unset."),
        ("NO_COLOR, TERM", "NO_COLOR set, or TERM=dumb, keeps the terminal reader's themes to plain text."),
        ("COLUMNS", "The width text is wrapped to when standard output is not a terminal.")
    ]

    /// Where shelf keeps its files (ShelfDirectories) and what else it installs.
    static let files: [(path: String, meaning: String)] = [
        (
            "$XDG_DATA_HOME/shelf/library.sqlite3",
            "The library database: accounts, loans, holds, the bookshelf, positions, bookmarks, reading lists, notifications. What must not be lost."
        ),
        ("$XDG_DATA_HOME/shelf/", "Books added or downloaded, and each plugin's own data (plugins/ID)."),
        (
            "$XDG_CONFIG_HOME/shelf/",
            "Settings you may edit, and stored sign-ins when no Secret Service runs (mode 0600)."
        ),
        (
            "$XDG_CACHE_HOME/shelf/",
            "What shelf can compute or fetch again: the plugin registry, per-book memos, catalog feeds, the running server's address (serve.json). Deleting it only costs speed."
        ),
        ("$XDG_CONFIG_HOME/systemd/user/shelf-watch.service, shelf-watch.timer", "Written by `shelf watch --install`."),
        (
            "/usr/lib/shelf/plugins/, /usr/local/lib/shelf/plugins/",
            "The installed plugins, and those installed by hand beside a packaged shelf."
        ),
        ("/usr/share/shelf/web/", "The browser app's files.")
    ]

    /// PluginSearchPath.standard, in its order.
    static let pluginSearchPath = [
        "`--plugin-path DIR_OR_FILE` (repeatable), then the folders and files in `$SHELF_PLUGIN_PATH` (colon-separated).",
        "The folder of the `shelf` executable itself (only `libshelf-*.so` there).",
        "`~/.local/lib/shelf/plugins`.",
        "`PREFIX/lib/shelf/plugins`, where PREFIX is the folder above the executable's; a shelf installed in /usr also looks in `/usr/local/lib/shelf/plugins`."
    ]

    static let pluginSections: [(title: String, text: String)] = [
        (
            "DESCRIPTION",
            """
            A shelf plugin is a shared library that exports one symbol, `shelf_plugin_entry`, returning a descriptor: its id, \
            version, the ABI major it was built for, and its capabilities. Format plugins open books (probe, open, manifest, \
            render, positions, search, audio decoding); reading-list plugins connect services; speech plugins read books aloud. shelf loads plugins with \
            dlopen and calls them through C function tables only, so a plugin can be written in any language with a C ABI.

            The contract is the C99 headers: `shelf/plugin.h` (the rules, the descriptor, host services), `shelf/format.h` \
            (open, render, positions, search), `shelf/audio.h` (PCM decoding), `shelf/readinglist.h` (connectors), `shelf/speech.h` (voices, text to PCM \
            with word and sentence marks), \
            `shelf/http.h` and `shelf/credentials.h` (the host's HTTP client and the patron's secrets). A plugin built for \
            ABI 1.x keeps working with every 1.y host.
            """
        ),
        (
            "ABI VERSIONS",
            """
            The descriptor's abi_minor says which headers a plugin was built with; shelf loads a plugin of any 1.y. ABI \
            1.1 added, without changing anything 1.0 released: `shelf_host.plugin_path`, the plugin's own file, absolute, \
            given at init (as CLAP's init(plugin_path)), to find data files installed beside it; "shelf.probe/1", a \
            probe that can fail with a message when a file is the plugin's own but cannot be opened (a newer edition of \
            its format, a DRM), which the patron then reads instead of "no installed plugin opens it" and `shelf sniff` \
            shows; and a "Threading:" rule beside every function of the headers. Read a field added after 1.0 only when \
            struct_size covers it: SHELF_HAS_FIELD(host, shelf_host, plugin_path). `shelf plugins` says what a plugin \
            built for an older minor lacks, and that a plugin built for a newer minor gets only this shelf's calls.
            """
        ),
        (
            "THE PLUGIN KIT",
            """
            libshelf-plugin (`#include <shelf/helper.h>`, C99 on libc, MIT) writes and reads JSON without escaping or locale \
            bugs and builds Locators, manifests, render settings and reading-list entries. `pkg-config --cflags --libs \
            shelf-plugin` links the shared library; `pkg-config --variable=staticlib shelf-plugin` carries it inside the \
            plugin. `shelf-plugin-host PLUGIN.so FILE` is a stand-in host that calls every capability and prints what came \
            back, under valgrind if you like, without shelf. PREFIX/share/doc/shelf-plugin-dev holds the guide \
            (plugin-library.md: a whole format plugin in under 150 lines) and examples/ (a format plugin for text books, \
            a connector), each building with `make` against the installed kit. On Debian the kit is in the \
            shelf-plugin-dev package.
            """
        ),
        (
            "WHERE A PLUGIN RUNS",
            """
            The plugins shelf ships run in shelf's own process. Every other plugin (yours, from ~/.local/lib/shelf/plugins \
            or --plugin-path) runs in a child process, shelf-plugin-sandbox, started on first use (one per book it opens, \
            at most four kept); its calls cross a socket and behave as in process. The child is confined before your \
            library is loaded, and its constructors run confined too.

            It may read: your plugin's folder (the data files it ships beside itself), unless shelf's data lives \
            there, a folder that is, holds or lies inside shelf's configuration, data or cache folder (the home \
            folder, say): then your plugin's file alone; the libraries your plugin links from the folders of its run path (each \
            library file that shelf resolved, never the folders themselves); the system's libraries (/usr, /lib) and the \
            Swift runtime; the one book file it was handed, or the files a connector's "file" settings name. The other \
            files of a book made of several (an audiobook's tracks beside its manifest) it asks of shelf through the \
            companion files service (files.h, "shelf.host.files/1"), which opens a file only inside the book's folder, \
            not hidden, and none of shelf's own, and hands over a descriptor (the bundled audiobook plugin, run \
            confined, copies a track it gets so into its cache_dir once, for FFmpeg to seek in). It may write only its data_dir and \
            cache_dir (plugin.h). Any other open fails with EACCES (Landlock; a kernel without it is said once, and the \
            plugin then reads what shelf may).

            It may reach: nothing by itself. Its system calls are filtered by an allowlist (seccomp): socket, \
            socketpair, connect, io_uring, fork, exec, ptrace and signals to other processes fail with EPERM; unix \
            sockets, by path or abstract, are unreachable. A connector reaches the network only through the host's HTTP \
            service (http.h), and only the hosts of its own service: the addresses its connection's settings name (a \
            baseURL) and the "default" addresses its `describe` declares for its settings; a loopback address only when \
            a setting names it, and only that port. A format plugin gets no HTTP service.

            Its environment holds only the locale (LANG, LC_*, TZ), PATH=/usr/bin:/bin and LD_LIBRARY_PATH; nothing \
            else of shelf's. Its memory is limited to 2048 MiB (SHELF_PLUGIN_MEMORY): a larger allocation fails. A call \
            that stays silent for 30 s (SHELF_PLUGIN_TIMEOUT), or takes longer than 600 s in all however much progress \
            it reports (SHELF_PLUGIN_CALL_LIMIT), is stopped; a call that goes on 1 s after it was cancelled (Ctrl-C) \
            is stopped and fails as cancelled. A crash, an exit, a hang or an overrun is one line naming the plugin and \
            the call, and the next call starts the plugin again in a new process (in `shelf serve`, the next request); \
            a plugin that fails 3 times in a row, without answering one call between, is disabled for the rest of the \
            command. Its log lines are shown one line each, \
            control characters escaped (\\n, \\u{1B}), at most 100 in a row and 20 a second.

            `shelf plugins` says for each plugin where it runs (in shelf's process, confined, or out of process \
            unconfined) and why: shipped with shelf, found elsewhere, or moved by one of the settings below.

            To debug: SHELF_PLUGINS_IN_PROCESS=ID runs your plugin in shelf's process (under gdb, with your breakpoints; a \
            crash then ends shelf, and the timeout does not apply), SHELF_PLUGIN_CONFINEMENT=off runs it out of process \
            but unconfined, and SHELF_LOG=ID:debug shows its log.
            """
        ),
        (
            "LOGGING",
            """
            A plugin logs through the host's `log` service, never to standard output. shelf prints warnings and errors on \
            standard error as `shelf: ID: LEVEL: MESSAGE`, one line each with control characters escaped, at most 20 a \
            second after the first 100; SHELF_LOG=debug shows debug messages too, and \
            SHELF_LOG=org.example.fb2:debug only your plugin's (like GST_DEBUG; see plugin.h).
            """
        )
    ]
}
