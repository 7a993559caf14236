enum StateLoopDiagramPlaceholder {}
