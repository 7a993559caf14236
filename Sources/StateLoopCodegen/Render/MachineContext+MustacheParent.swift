import Mustache

// Lets Mustache read the render context through a `switch` instead of `Mirror`. Mustache looks up
// every `{{name}}` in each enclosing context until one has it, and a `Mirror` walk per lookup made
// rendering a 500-state machine take seconds; a miss here costs one failed `switch`. Each list
// below names exactly the stored properties of its type (MachineContext.swift): a property added
// there and not here renders as an empty string, which the golden tests catch.

extension MachineContext: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "header": self.header
        case "imports": self.imports
        case "machine": self.machine
        case "access": self.access
        case "readOnlyAccess": self.readOnlyAccess
        case "machineDoc": self.machineDoc
        case "typeAliases": self.typeAliases
        case "modeLines": self.modeLines
        case "modeConformances": self.modeConformances
        case "stateNames": self.stateNames
        case "queryLines": self.queryLines
        case "internalFields": self.internalFields
        case "initialBody": self.initialBody
        case "stateEquality": self.stateEquality
        case "eventEquality": self.eventEquality
        case "reduceBody": self.reduceBody
        case "eventless": self.eventless
        case "dispatch": self.dispatch
        case "reducerReturn": self.reducerReturn
        case "timerModes": self.timerModes
        case "runCases": self.runCases
        case "runEquality": self.runEquality
        case "hasRuns": !self.runCases.isEmpty
        case "runFeedback": self.runFeedback
        case "sendLines": self.sendLines
        case "sendFeedback": self.sendFeedback
        case "typeLines": self.typeLines
        case "initialDeclaration": self.initialDeclaration
        case "recordingLines": self.recordingLines
        case "conformance": self.conformance
        case "systemLines": self.systemLines
        case "systemFinish": self.systemFinish
        case "fields": self.fields
        case "hasTimers": self.hasTimers
        case "hasEffects": self.hasEffects
        case "initParameters": self.initParameters
        case "members": self.members
        case "events": self.events
        case "payloads": self.payloads
        case "reducerModes": self.reducerModes
        case "effects": self.effects
        case "timers": self.timers
        case "hasFeedbacks": self.hasFeedbacks
        case "feedbacksParameters": self.feedbacksParameters
        case "systemParameters": self.systemParameters
        case "feedbacksArguments": self.feedbacksArguments
        default: nil
        }
    }
}

extension MachineContext.Field: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "type": self.type
        case "doc": self.doc
        case "parameter": self.parameter
        default: nil
        }
    }
}

extension MachineContext.Member: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "doc": self.doc
        case "declaration": self.declaration
        case "body": self.body
        default: nil
        }
    }
}

extension MachineContext.TypeAlias: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "doc": self.doc
        case "lines": self.lines
        default: nil
        }
    }
}

extension MachineContext.EventCase: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "doc": self.doc
        case "declaration": self.declaration
        default: nil
        }
    }
}

extension MachineContext.Payload: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "doc": self.doc
        case "name": self.name
        case "fields": self.fields
        default: nil
        }
    }
}

extension MachineContext.ReducerMode: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "mode": self.mode
        case "function": self.function
        case "body": self.body
        default: nil
        }
    }
}

extension MachineContext.Effect: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "resultType": self.resultType
        case "results": self.results
        case "conversions": self.conversions
        case "resultEquality": self.resultEquality
        case "hasResults": self.hasResults
        case "method": self.method
        case "requestMember": self.requestMember
        case "feedback": self.feedback
        default: nil
        }
    }
}

extension MachineContext.Timer: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "doc": self.doc
        case "requestMember": self.requestMember
        case "requestType": self.requestType
        case "request": self.request
        case "delay": self.delay
        case "fireEvent": self.fireEvent
        default: nil
        }
    }
}
