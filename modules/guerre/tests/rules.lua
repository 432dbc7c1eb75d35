-- La Guerre de l'Empereur: the set-up bid, the calendar and the chit cup against the text.

local POWERS4 = { "FR", "GB", "RU", "AU" }

local function bid_all(g, bids, dice)
  for i, power in ipairs(POWERS4) do
    g:act_as(power, "bid", bids[power], i == #POWERS4 and dice or nil)
  end
end

-- Rule 3.1 and 3.5: the highest bidder picks first, and each power's VP start at 100 less
-- its player's bid. Set-up: four players bid 5 (France's place), 12 (Britain's), 0
-- (Russia's) and 3 (Austria's). Expected: picks in the order Britain's, France's,
-- Austria's, Russia's place; the powers they pick start at 88, 95, 97 and 100 VP.
test("3.1 the highest bidder picks first; VP start at 100 less the bid", function(t)
  local g = t:game { scenario = "four-player", seed = 1 }
  bid_all(g, { FR = 5, GB = 12, RU = 0, AU = 3 })
  t:eq(g:prompt().seat, "GB", "Britain's place picks first")
  g:act("pick", "FR")
  t:eq(g:prompt().seat, "FR")
  g:act("pick", "RU")
  t:eq(g:prompt().seat, "AU")
  t:eq(g:legal(), { "pick GB", "pick AU" }, "only the powers not taken")
  g:act("pick", "GB")
  t:eq(g:prompt().seat, "RU")
  g:act("pick", "AU")
  t:eq({ g:counter("vp.FR"), g:counter("vp.RU"), g:counter("vp.GB"), g:counter("vp.AU") }, { 88, 95, 97, 100 })
  t:eq(g:vars().played_by, { FR = "GB", RU = "FR", GB = "AU", AU = "RU" })
end)

-- Rule 3.1: ties are broken by a die roll. Set-up: France's and Britain's places both bid
-- 5; the dice 2 (France's place) and 6 (Britain's). Expected: Britain's place picks first.
test("3.1 a tied bid is broken by a die", function(t)
  local g = t:game { scenario = "four-player", seed = 1 }
  g:set_dice("physical")
  bid_all(g, { FR = 5, GB = 5, RU = 1, AU = 0 }, { 2, 6 })
  t:eq(g:vars().pick_order, { "GB", "FR", "RU", "AU" })
end)

-- Rule 3.1: the bids are written in secret and revealed together: until every player has
-- bid, no seat reads another's bid, in its view or in the log.
test("3.1 each bid stays secret until all are in", function(t)
  local g = t:game { scenario = "four-player", seed = 1 }
  g:act_as("FR", "bid", 17)
  g:act_as("GB", "bid", 4)
  for _, seat in ipairs({ "GB", "RU", "AU" }) do
    local json = g:json(seat)
    t:eq(json.flow[1].answers.FR, "answered", seat .. " sees that France's place has bid")
    for _, line in ipairs(g:log(seat)) do
      t:ok(not line:find("17", 1, true), seat .. " reads: " .. line)
    end
  end
  t:eq(g:json("FR").flow[1].answers.GB, "answered")
end)

-- Rule 3.0: in a two-player game France and Great Britain play; the other five powers are
-- inactive NPCs, whose chits stay out of the cup (4.6).
test("3.0 two players are France and Britain; the NPCs' chits stay out of the cup", function(t)
  local g = t:game { scenario = "two-player", seed = 2 }
  t:eq(g:vars().pcs, { "FR", "GB" })
  t:eq(g:vars().npc, { RU = "inactive", AU = "inactive", PR = "inactive", SP = "inactive", OT = "inactive" })
  g:act_as("FR", "bid", 0)
  g:act_as("GB", "bid", 0)
  g:act("pick", "FR")
  g:act("pick", "GB")
  t:eq(g:json().zones.cup.count, 2)
end)

-- Rules 4.6 and 1.2: France may go first; each player whose turn ends draws the next chit;
-- the Mutual Build Phase closes the Season; after Fall 1805 comes the 1806 Winterphase,
-- then Spring 1806 with every chit back in the cup.
test("4.6 the chit cup orders the Season, and the calendar runs on", function(t)
  local g = t:game { scenario = "four-player", seed = 3 }
  bid_all(g, { FR = 4, GB = 3, RU = 2, AU = 1 })
  for _, power in ipairs(POWERS4) do
    g:act("pick", power)
  end
  t:eq(g:legal(), { "first", "draw" })
  g:act("first")
  t:eq(g:prompt().seat, "FR")
  local seen = { FR = true }
  for _ = 1, 3 do
    g:act("done")
    local seat = g:prompt().seat
    t:ok(seat and not seen[seat], "each power once: " .. tostring(seat))
    seen[seat] = true
  end
  g:act("done")
  t:eq(g:state(), "build")
  for _, power in ipairs(POWERS4) do
    g:act_as(power, "built")
  end
  t:eq(g:state(), "winterphase")
  t:eq(g:vars().year, 1806)
  g:act("done")
  t:eq(g:vars().season, "Spring")
  t:eq(g:json().zones.cup.count, 4, "every chit back in the cup")
end)

-- Rule 7.0 and 7.1: the first power to reach its objective wins (France 450 VP).
-- Set-up: France's VP set to 450 by hand during its turn. Expected: the game ends, France
-- the winner.
test("7.0 France wins on reaching 450 VP", function(t)
  local g = t:game { scenario = "four-player", seed = 3 }
  bid_all(g, { FR = 4, GB = 3, RU = 2, AU = 1 })
  for _, power in ipairs(POWERS4) do
    g:act("pick", power)
  end
  g:act("first")
  g:set_counter("vp.FR", 449)
  g:act("done")
  t:eq(g:result(), nil, "449 is not enough")
  while g:state() == "player_turn" do
    g:act("done")
  end
  for _, power in ipairs(POWERS4) do
    g:act_as(power, "built")
  end
  g:act("done")
  g:act("first")
  g:set_counter("vp.FR", 450)
  g:act("done")
  t:eq(g:result().winners, { "FR" })
end)
