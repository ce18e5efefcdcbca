// The values below the core (ShelfError, DisplayText, the patron's dates, the folders as a value): every module
// that builds on the core names them, so the core hands them on with itself.
@_exported import ShelfValues
