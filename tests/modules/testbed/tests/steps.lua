-- Tests of the step library (@lib/steps.lua) on the testbed's muster (rules/muster.lua).

-- Rule: a step for each seat runs from the seat the rules name and wraps around.
-- Set-up: muster, seed 1. Expected: Beta levies first, then Alpha; the pool gains both levies.
test("a loop over the seats starts at a given seat and wraps", function(t)
  local g = t:game { scenario = "muster", seed = 1 }
  t:eq(g:state(), "levy")
  t:eq(g:prompt().seat, "B", "Beta first")
  g:act("levy", 2)
  t:eq(g:prompt().seat, "A", "then around to Alpha")
  g:act("levy", 1)
  t:eq(g:units("pool", "inf"), 6, "3 + 2 + 1")
  t:eq(g:state(), "review")
end)

-- Rule: a seat that has left the game is passed by when its turn in the loop comes.
-- Set-up: muster with Beta gone. Expected: Alpha levies first and alone.
test("a loop passes by a seat that has left the game", function(t)
  local g = t:game { scenario = "muster", seed = 1, options = { gone = "B" } }
  t:eq(g:prompt().seat, "A")
  g:act("levy", 2)
  t:eq(g:state(), "review", "no levy for Beta")
  t:eq(g:units("pool", "inf"), 5)
end)

-- Rule: a step's sub-procedure hands back a result that the next step uses.
-- Set-up: muster, both levies, the review picks two. Expected: two cavalry join; the log
-- names each step where it stood.
test("a sub-procedure's result is used by the next step", function(t)
  local g = t:game { scenario = "muster", seed = 1 }
  g:act("levy", 1)
  g:act("levy", 1)
  g:act("cavalry", 2)
  t:eq(g:units("pool", "cav"), 3, "1 + 2")
  t:eq(g:state(), "turn", "the procedure is over and the turn goes on")
  local log = table.concat(g:log(), "\n")
  t:ok(log:find("Muster, 1. Levy, Beta: Beta levies 1 infantry.", 1, true), log)
  t:ok(log:find("Muster, 3. Reinforce: 2 cavalry join the pool.", 1, true), log)
end)

-- Rule: undo in the middle of a loop goes back to the same item of the same step.
-- Set-up: muster; Beta levies, Alpha levies, then one undo. Expected: Alpha is asked again
-- and the pool holds Beta's levy only; answering again goes on as before.
test("undo in the middle of a loop returns to the same seat", function(t)
  local g = t:game { scenario = "muster", seed = 1 }
  g:act("levy", 2)
  g:act("levy", 1)
  g:undo()
  t:eq(g:state(), "levy")
  t:eq(g:prompt().seat, "A")
  t:eq(g:units("pool", "inf"), 5)
  g:act("levy", 2)
  t:eq(g:units("pool", "inf"), 7)
  t:eq(g:state(), "review")
end)
