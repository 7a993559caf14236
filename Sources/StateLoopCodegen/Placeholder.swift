enum StateLoopCodegenPlaceholder {}
