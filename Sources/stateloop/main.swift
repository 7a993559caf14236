print("stateloop: not built yet")
