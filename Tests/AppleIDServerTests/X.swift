import Testing; import HummingbirdTesting; @Test func x() {}
