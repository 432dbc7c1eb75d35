-- Testbed self-tests: each plays a few inputs and checks what the rules did.

-- Rule: setup deals two cards to each seat and Alpha begins.
-- Set-up: basic scenario, seed 1. Expected: hands of 2, deck of 1, Alpha to play.
test("setup deals two cards each and Alpha begins", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  t:eq(#g:zone("hand.A"), 2, "Alpha's hand")
  t:eq(#g:zone("hand.B"), 2, "Beta's hand")
  t:eq(#g:zone("deck"), 1, "deck")
  t:eq(g:prompt().seat, "A")
  t:eq(g:state(), "turn")
  t:eq(g:turn(), 1)
end)

-- Rule: playing a card scores its value, discards it, draws one and passes the turn.
-- Set-up: basic, seed 1. Expected: Alpha's score equals the card's value; Beta to play.
test("playing a card scores its value and passes the turn", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local card = g:zone("hand.A")[1]
  local values = { one = 1, two = 2, three = 3, four = 4, five = 5 }
  g:act("play", card)
  t:eq(g:counter("vp.A"), values[card], "Alpha's score")
  t:eq(g:zone("discard")[1], card, "top of the discard")
  t:eq(#g:zone("hand.A"), 2, "Alpha drew a replacement")
  t:eq(g:prompt().seat, "B")
  t:eq(g:turn(), 2)
  local _, space = g:space_of("marker.A")
  t:eq(space, tostring(values[card]), "Alpha's marker on the score track")
end)

-- Rule: an action that is not listed is refused and changes nothing.
test("an illegal action is refused", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local ok, err = g:try("play", "mystery")
  t:eq(ok, false)
  t:ok(err:find("not a legal action", 1, true), err)
  t:eq(g:inputs(), 0)
  t:fails(function() g:act("bid", 4) end, "not a legal action")
end)

-- Rule: a bid records the highest bid so far on its counter.
test("bids keep the highest", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("bid", 2)
  g:act("bid", 1)
  t:eq(g:counter("bid"), 2)
end)

-- Rule: a recruit roll of 4 or more moves an infantry unit from the pool to Alpha's army;
-- a 1 adds a cavalry unit to the pool. Dice are supplied, as from a physical table.
test("recruit rolls move units", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("recruit", nil, { 5 })
  t:eq(g:units("army.A", "inf"), 1)
  t:eq(g:units("pool", "inf"), 2)
  g:act("recruit", nil, { 1 })
  t:eq(g:units("pool", "cav"), 2)
  local log = g:log()
  t:eq(log[#log], "Pool: 2 infantry, 2 cavalry.")
end)

-- Rule: with physical dice, a roll waits for the table's die.
test("physical dice are asked for", function(t)
  local g = t:game { scenario = "basic", seed = 1, dice = "physical" }
  local ok, err = g:try("recruit")
  t:eq(ok, false)
  t:ok(err:find("roll a 6-sided die", 1, true), err)
  g:act("recruit", nil, { 5 })
  t:eq(g:units("army.A", "inf"), 1)
end)

-- Rule: a roll of 6 reads the recruit table's 6 row, which is not entered: it is asked for.
test("an unknown table entry is asked for", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local ok, err = g:try("recruit", nil, { 6 })
  t:eq(ok, false)
  t:ok(err:find("table 'recruit_bonus': entry '6' is not entered yet", 1, true), err)
end)

-- Rule: Alpha's block marches along links; East scores its VP, which is not entered.
test("marching east asks for the unknown VP of East", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  t:eq(g:legal()[#g:legal() - 1], "march south")
  g:act("march", "south")
  local _, space = g:space_of("block.A")
  t:eq(space, "south")
  g:act("pass")
  local ok, err = g:try("march", "east")
  t:eq(ok, false)
  t:ok(err:find("space 'land/east': property 'vp'", 1, true), err)
end)

-- Rule: playing a card whose value is not entered asks for it instead of guessing.
test("an unknown card value is asked for", function(t)
  local g = t:game { scenario = "mystery", seed = 3 }
  local ok, err = g:try("play", "mystery")
  t:eq(ok, false)
  t:ok(err:find("card 'mystery': field 'value' is not entered yet", 1, true), err)
  t:eq(g:inputs(), 0, "nothing was recorded")
end)

-- Rule: a detour is pushed over the turn, asks yes/no, and the turn resumes after it.
test("a detour pushes a state and pops back", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("detour")
  t:eq(g:state(), "detour")
  t:eq(g:prompt().text, "Set the mystery card aside? (human)")
  g:act("yes", true)
  t:eq(g:state(), "turn")
  t:eq(g:prompt().seat, "A", "Alpha's turn resumes")
  t:eq(g:space_of("marker.B"), nil, "Beta's marker was taken off")
  g:act("detour")
  g:act("no", false)
  local place, space = g:space_of("marker.B")
  t:eq({ place, space }, { "score", "0" })
  local log = g:log()
  t:eq(log[#log], "Detour ends for A.")
end)

-- Rule: two passes in a row end the game; the higher score wins.
test("two passes end the game", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local card = g:zone("hand.A")[1]
  g:act("play", card)
  g:act("pass")
  g:act("pass")
  t:eq(g:prompt(), nil, "no decision is left")
  local result = g:result()
  t:eq(result.winners, { "A" })
  t:eq(result.scores.B, 0)
end)

-- Rule: the simple bot plays its highest card and explains why; bots play to the end.
test("the simple bot plays its highest card", function(t)
  local g = t:game { scenario = "basic", seed = 1, seats = { A = "bot", B = "bot" } }
  local hand = g:zone("hand.A")
  local values = { one = 1, two = 2, three = 3, four = 4, five = 5 }
  local best = values[hand[1]] > values[hand[2]] and hand[1] or hand[2]
  local choice, reasons = g:bot()
  t:eq(choice, "play " .. best)
  t:eq(reasons[1], "1. Is there a card with a known value to play? Yes.")
  g:run_bots()
  t:ok(g:result() ~= nil, "the game ended")
end)

-- Rule: undo takes back the last input and redo plays it again.
test("undo and redo", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("bid", 3)
  t:eq(g:counter("bid"), 3)
  t:eq(g:undo(), true)
  t:eq(g:counter("bid"), 0)
  t:eq(g:redo(), true)
  t:eq(g:counter("bid"), 3)
end)

-- Rule: the seat view hides the other hand and the deck, and adds the module's view data.
test("a seat sees only its own hand", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local json = g:json("A")
  t:eq(json.zones["hand.B"].cards, { "?", "?" })
  t:eq(json.zones["hand.A"].cards, g:zone("hand.A"))
  t:eq(json.view, { passes = 0, seat = "A", other_hand = { "?", "?" } })
end)

-- Rule: moves by hand are recorded like any input.
test("moves by hand are inputs", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:set_counter("vp.B", 4)
  g:place("marker.B", "score", "4")
  g:add_units("pool", "cav", 2)
  g:move_card("mystery", "discard")
  t:eq(g:counter("vp.B"), 4)
  t:eq(g:units("pool", "cav"), 3)
  t:eq(g:zone("discard"), { "mystery" })
  t:eq(g:inputs(), 4)
end)
