import PackagePlugin

@main
struct StateLoopCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {}
}
