// The renderer's callers name buttons with the spec's types: `import AppleIDButtons` brings them.
@_exported import AppleIDButtonSpec
