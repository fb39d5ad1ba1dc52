/// Everything the console stores beside the engine's records, as the memory store and the SQL stores
/// keep it (in the same database). Operations take the one protocol they use.
public typealias ConsoleStore = DeveloperAccountStore & ConsoleSessionStore & TeamInvitationStore & TransferOfferStore & KeyDownloadStore
    & RequestLogStore
