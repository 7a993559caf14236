import PackagePlugin

@main
struct StateLoopPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] { [] }
}
