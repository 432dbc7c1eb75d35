-- La Guerre de l'Empereur: the set-up bid, the calendar and the chit cup against the text.

local play = include("tests/lib/play.lua")
local prepare = include("rules/prepare.lua")
local naval = include("rules/naval.lua")
local battle = include("rules/battle.lua")
local season = include("rules/season.lua")
local cancel = include("rules/cancel.lua")

local POWERS4 = { "FR", "GB", "RU", "AU" }

local function bid_all(g, bids, dice)
  for i, power in ipairs(POWERS4) do
    g:act_as(power, "bid", bids[power], i == #POWERS4 and dice or nil)
  end
end

-- The four-player game of seed 3 past its bid (France 4, Britain 3, Russia 2, Austria 1)
-- and picks (each bidder its own power), at the Fall 1805 Turn Start.
local function picked(t)
  local g = t:game { scenario = "four-player", seed = 3, overlay = play.FIXTURE }
  bid_all(g, { FR = 4, GB = 3, RU = 2, AU = 1 })
  for _, power in ipairs(POWERS4) do
    g:act("pick", power)
  end
  return g
end

-- Rule 3.1 and 3.5: the highest bidder picks first, and each power's VP start at 100 less
-- its player's bid. Set-up: four players bid 5 (France's place), 12 (Britain's), 0
-- (Russia's) and 3 (Austria's). Expected: picks in the order Britain's, France's,
-- Austria's, Russia's place; the powers they pick start at 88, 95, 97 and 100 VP.
test("3.1 the highest bidder picks first; VP start at 100 less the bid", function(t)
  local g = t:game { scenario = "four-player", seed = 1, overlay = play.FIXTURE }
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
  -- 3.2: each Player Country takes its mat's initial money (the fixture's placeholders:
  -- France and Britain 30, Russia and Austria 20); the NPCs have none.
  t:eq({ g:counter("gold.FR"), g:counter("gold.GB"), g:counter("gold.RU"), g:counter("gold.AU"), g:counter("gold.PR") },
    { 30, 30, 20, 20, 0 })
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
    t:eq(json.flow[#json.flow].answers.FR, "answered", seat .. " sees that France's place has bid")
    for _, line in ipairs(g:log(seat)) do
      t:ok(not line:find("17", 1, true), seat .. " reads: " .. line)
    end
  end
  local flow = g:json("FR").flow
  t:eq(flow[#flow].answers.GB, "answered")
end)

-- Rule 3.0: in a two-player game France and Great Britain play; the other five powers are
-- inactive NPCs, whose chits stay out of the cup (4.6).
test("3.0 two players are France and Britain; the NPCs' chits stay out of the cup", function(t)
  local g = t:game { scenario = "two-player", seed = 2, overlay = play.FIXTURE }
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
  local g = picked(t)
  t:eq(g:legal(), { "first", "draw" })
  g:act("first")
  play.prepare(g)
  t:eq(g:prompt().seat, "FR")
  local seen = { FR = true }
  for _ = 1, 3 do
    g:act("done")
    play.prepare(g)
    local seat = g:prompt().seat
    t:ok(seat and not seen[seat], "each power once: " .. tostring(seat))
    seen[seat] = true
  end
  g:act("done")
  t:eq(g:state(), "build")
  for _, power in ipairs(POWERS4) do
    g:act_as(power, "built")
  end
  t:eq(g:state(), "tax", "the Winterphase")
  t:eq(g:vars().year, 1806)
  play.winter(g)
  t:eq(g:vars().season, "Spring")
  t:eq(g:json().zones.cup.count, 4, "every chit back in the cup")
end)

-- Rule 7.0 and 7.1: the first power to reach its objective wins (France 450 VP).
-- Set-up: France's VP set to 450 by hand during its turn. Expected: the game ends, France
-- the winner.
test("7.0 France wins on reaching 450 VP", function(t)
  local g = picked(t)
  g:act("first")
  play.prepare(g)
  g:set_counter("vp.FR", 449)
  g:act("done")
  t:eq(g:result(), nil, "449 is not enough")
  play.prepare(g)
  while g:state() == "player_turn" do
    g:act("done")
    play.prepare(g)
  end
  for _, power in ipairs(POWERS4) do
    g:act_as(power, "built")
  end
  play.winter(g)
  g:act("first")
  play.prepare(g)
  g:set_counter("vp.FR", 450)
  g:act("done")
  t:eq(g:result().winners, { "FR" })
end)

-- Rules 4.21-4.23: each player's taxes, the expenses (10 gold an NPC ally), the VP of his
-- provinces. Set-up: two players; in the 1806 Winterphase France taxes 40 and collects 12
-- VP, Britain taxes 30 and collects 9; Britain gains Spain (it needs 9, rolls 9). In 1807
-- Britain pays 10 for its ally: taxes 30 - 10.
test("4.21-4.23 taxes, the NPC ally's expense and VP collection", function(t)
  local g = play.started(t, "two-player")
  play.season(g)
  local fr_vp, gb_vp = g:counter("vp.FR"), g:counter("vp.GB")
  play.winter(g, { tax = { FR = 40, GB = 30 }, vp = { FR = 12, GB = 9 }, rolls = { GB = { "SP", 9 } } })
  t:eq({ g:counter("gold.FR"), g:counter("gold.GB") }, { 40, 30 })
  t:eq({ g:counter("vp.FR"), g:counter("vp.GB") }, { fr_vp + 12, gb_vp + 9 })
  t:eq(g:vars().npc_ally.SP, "GB", "a 9 gains Spain for Britain (9 needed)")
  t:eq(g:vars().npc.SP, "allied")
  play.year(g, { tax = { FR = 40, GB = 30 } })
  t:eq(g:counter("gold.GB"), 30 + 30 - 10, "Britain pays 10 for its NPC ally")
end)

-- Rule 4.4: a player gains an NPC no one has on its number or more, and breaks another
-- player's alliance with it two above its number, a 10 always. Set-up (the fixture's
-- numbers for Spain: France 7, Britain 9): 1806 France rolls 7 and gains Spain; 1807
-- Britain rolls 10 (9 + 2 is more than 10) and breaks it; 1808 Britain rolls 9 and gains
-- Spain; 1809 France rolls 8 (7 + 2 needed) and fails.
test("4.4 an NPC is gained on its number, and an alliance broken two above it or on a 10", function(t)
  local g = play.started(t, "two-player")
  play.gains_npc(t, g, "FR", "SP", 7)
  play.year(g, { rolls = { GB = { "SP", 10 } } })
  t:eq(g:vars().npc_ally.SP, nil, "a 10 always breaks it")
  t:eq(g:vars().npc.SP, "inactive")
  play.year(g, { rolls = { GB = { "SP", 9 } } })
  t:eq(g:vars().npc_ally.SP, "GB")
  play.year(g, { rolls = { FR = { "SP", 8 } } })
  t:eq(g:vars().npc_ally.SP, "GB", "8 is short of 7 + 2")
end)

-- Rule 4.25: each player buys up to 10 VP in secret; 1 VP costs 1 gold, 10 cost 55; the
-- purchases are revealed together. Set-up: France taxes 60 and buys 10; Britain taxes 5
-- and buys 1. Expected: France 5 gold and 10 more VP, Britain 4 gold and 1 more VP; while
-- France waits for Britain, Britain sees only that France has chosen.
test("4.25 VP bought in secret: 1 for 1 gold, 10 for 55", function(t)
  local g = play.started(t, "two-player")
  play.season(g)
  local fr_vp, gb_vp = g:counter("vp.FR"), g:counter("vp.GB")
  while g:state() == "tax" do
    g:act("tax", g:prompt().seat == "FR" and 60 or 5)
  end
  while g:state() == "vp_collection" do
    g:act("vp", 0)
  end
  t:eq(g:state(), "vp_purchase")
  t:eq(g:prompt().asks[1].actions[1].max, 10, "France's 60 gold buy 10 VP, no more")
  g:act_as("FR", "buy", 10)
  local flow = g:json("GB").flow
  t:eq(flow[#flow].answers.FR, "answered")
  for _, line in ipairs(g:log("GB")) do
    t:ok(not line:find("buys", 1, true), "Britain reads: " .. line)
  end
  local max = {}
  for _, ask in ipairs(g:prompt().asks) do
    max[ask.seat] = ask.actions[1].max
  end
  t:eq(max, { GB = 2 }, "Britain's 5 gold buy at most 2 VP (3 gold); France has chosen")
  g:act_as("GB", "buy", 1)
  t:eq({ g:counter("gold.FR"), g:counter("vp.FR") }, { 5, fr_vp + 10 })
  t:eq({ g:counter("gold.GB"), g:counter("vp.GB") }, { 4, gb_vp + 1 })
end)

-- Rule 4.258 (its example): Spain pays $2 for its first year in the Continental System and
-- $4 the next; France takes 15 off its own cost when another nation takes part. Set-up:
-- six players; France declares it and Spain joins in the Fall of 1805; each Winterphase
-- Spain taxes 20 and France 40.
test("4.258 Spain pays 2 for its first embargo year and 4 for its second", function(t)
  local g = play.started(t, "six-player")
  local embargo = function(game, power)
    local e = game:vars().embargo
    if power == "FR" and not e.FR then
      game:act("declare_embargo")
    elseif power == "SP" and e.FR and not e.SP then
      game:act("join_embargo")
    end
  end
  play.season(g, embargo, true)
  t:eq(g:vars().embargo, { FR = true, SP = true })
  local gb = g:counter("vp.GB")
  play.winter(g, { tax = { SP = 20, FR = 40 }, ports = 2 })
  t:eq(g:counter("gold.SP"), 18, "Spain's first year: 20 - 2")
  t:eq(g:counter("gold.FR"), 45, "France's first year (10 on the fixture's track) less 15: it gains 5")
  t:eq(g:counter("vp.GB"), gb - 1 - 1 - 2, "Britain loses France's and Spain's first-year VP and 2 for the ports")
  t:eq(g:vars().embargo_years, { FR = 1, SP = 1 })
  play.year(g, { tax = { SP = 20, FR = 40 } })
  t:eq(g:counter("gold.SP"), 18 + 16, "Spain's second year: 20 - 4")
end)

-- Rule 4.257/4.258 (their example): on the 7th year of France's embargo Britain loses 5 VP
-- and France pays 23 gold. Set-up: two players; France declares the Continental System in
-- Fall 1805 and keeps it through seven Winterphases, taxing 40 each.
test("4.257 France's 7th embargo year costs Britain 5 VP and France 23 gold", function(t)
  local g = play.started(t, "two-player")
  play.season(g, function(game, power)
    if power == "FR" and not game:vars().embargo.FR then
      game:act("declare_embargo")
    end
  end, true)
  play.winter(g, { tax = { FR = 40 } })
  for _ = 2, 6 do
    play.year(g, { tax = { FR = 40 } })
  end
  t:eq(g:vars().embargo_years.FR, 6)
  for _ = 1, 3 do
    play.season(g)
  end
  local gold, gb = g:counter("gold.FR"), g:counter("vp.GB")
  play.winter(g, { tax = { FR = 40 } })
  t:eq(g:counter("gold.FR"), gold + 40 - 23, "23 gold in its 7th year, France alone")
  t:eq(g:counter("vp.GB"), gb - 5, "Britain loses 5 VP")
end)

-- Rule 4.72: France and Britain add one to their Administrative Events roll; a 9 sends the
-- roll to the Political Events Table, a 10 to the Strategic, and France's or Britain's 11
-- to its own Diplomacy Table. Set-up: two players, physical dice; France rolls 10 (11 with
-- its one) and then 4; Britain rolls 8 (9) and then 6.
test("4.72 the Event Table Sequence routes the roll", function(t)
  local g = play.started(t, "two-player")
  g:set_dice("physical")
  g:act("first")
  g:act("events", nil, { 10, 4 })
  t:eq(g:prompt().text, "The event (4.72): French diplomacy placeholder 4")
  g:act("applied")
  g:act("done")
  g:act("events", nil, { 8, 6 })
  t:eq(g:prompt().text, "The event (4.72): political placeholder 6")
  t:eq(prepare.routed("RU", 10), "strategic")
  t:eq(prepare.routed("RU", 8), nil)
end)

-- Rules 4.72 and 4.721: a one-time event happens once; one whose criteria are not met may
-- still come on a later roll. Set-up: France rolls 2 (3: the fixture's one-time event) and
-- says its criteria are not met; next Season it rolls 2 again and carries it out; the Season
-- after, a third 2 brings no event.
test("4.721 a one-time event happens once, and may wait for its criteria", function(t)
  local g = play.started(t, "two-player")
  local function french_turn(outcome)
    g:act("first")
    g:set_dice("physical")
    g:act("events", nil, { 2 })
    g:set_dice("digital")
    if outcome then
      t:eq(g:state(), "event")
      g:act(outcome)
    end
    t:eq(g:state(), "player_turn")
    g:act("done")
    play.season(g)
  end
  french_turn("not_met")
  play.winter(g)
  french_turn("applied")
  french_turn(nil)
  play.logged(t, g, "It has happened already: no event")
end)

-- Rule 4.71: a player may pay 10 gold before his turn for an NPC Alliance roll (none in a
-- deficit). Set-up: France with 15 gold pays 10 and rolls 7 for Spain (7 needed).
test("4.71 an NPC Alliance roll for 10 gold before the turn", function(t)
  local g = play.started(t, "two-player")
  g:set_dice("physical")
  g:act("first")
  t:ok(not table.concat(g:legal(), " "):find("npc_roll", 1, true), "no roll without 10 gold")
  g:set_counter("gold.FR", 15)
  g:act("npc_roll", "SP", { 7, 1 })
  t:eq(g:counter("gold.FR"), 5)
  t:eq(g:vars().npc_ally.SP, "FR")
end)

-- Rule 5.44: the strength ratio is rounded down in favour of the smaller side: 8 to 3 is 2
-- to 1 (the text's example).
test("5.44 8 squadrons to 3 are 2 to 1", function(t)
  t:eq({ naval.ratio(8, 3) }, { "attacker", 2 })
  t:eq({ naval.ratio(3, 8) }, { "defender", 2 })
  t:eq({ naval.ratio(4, 4) }, { nil, 1 })
end)

-- Rules 5.44 and 5.441: the higher modified die wins 3 VP; the loser loses a squadron.
-- Set-up: in Britain's turn, its 8 squadrons against France's 3 (2 to 1: the fixture's +1
-- to Britain), no other modifiers, both dice 6. Expected: Britain wins 7 to 6 and 3 VP.
test("5.441 the naval winner gains 3 VP", function(t)
  local g = play.started(t, "two-player")
  g:act("draw")
  play.prepare(g)
  while g:prompt().seat ~= "GB" do
    g:act("done")
    play.prepare(g)
  end
  play.declare(g, "FR")
  local vp = g:counter("vp.GB")
  play.naval(g, { "FR", 8, 3, 0, 0 }, { 6, 6 })
  t:eq(g:counter("vp.GB"), vp + 3)
  t:eq(g:state(), "player_turn", "back to Britain's turn")
end)

-- Rule 5.442: a tie costs each side a squadron and awards no VP; either side may end the
-- combat, else another round is fought with VP awarded normally. Set-up: France's 2
-- squadrons against Britain's 2; the dice 4 and 4 (a tie, 1 each left), both fight on,
-- then 3 and 7: Britain wins 3 VP.
test("5.442 a tie costs a squadron each, and another round may follow", function(t)
  local g = play.french_war(t, "GB")
  local gb = g:counter("vp.GB")
  play.naval(g, { "GB", 2, 2, 0, 0 }, { 4, 4 })
  t:eq(g:state(), "naval_tie")
  t:eq(g:counter("vp.GB"), gb, "no VP on a tie")
  g:act("again")
  t:eq(g:prompt().seat, "GB", "Britain may end it too")
  g:act("again", nil, { 3, 7 })
  t:eq(g:counter("vp.GB"), gb + 3)
  t:eq(g:state(), "player_turn")
end)

-- Rules 5.616 and 5.618 (their examples): 9 divisions rolling 3 inflict 27 casualties, which
-- rout 3 enemy divisions; of 5 routed divisions 3 are eliminated.
test("5.616 9 divisions rolling 3 inflict 27 casualties and 3 routs; 5 routed lose 3", function(t)
  t:eq({ battle.routs(9, 3, 20) }, { 27, 3 })
  t:eq(battle.eliminated(5), 3)
  t:eq({ battle.routs(9, 3, 2) }, { 27, 2 }, "no more routs than the enemy has divisions")
end)

-- A battle both readings of victory decide differently (RULES-GAPS.md): France's 9
-- divisions attack Britain's 13, no modifiers on either side; Britain wins the Initiative
-- (dice 1 and 6); France rolls 3 (27 casualties, 3 routs), Britain 2 (26, 3 routs).
-- By casualties (5.616, the default) France wins; by routs and eliminations (5.621) the
-- two are even and the Initiative, Britain's, wins.
local function even_battle(t, reading)
  local g = play.french_war(t, "GB", { ["battle.victory"] = reading })
  play.battle(g, "GB", { divisions = 9, corps = 3 }, { divisions = 13, corps = 4 }, { 1, 6 })
  g:act("attack", nil, { 3, 2 })
  return g
end

test("5.616 reading casualties: the side that inflicts more wins", function(t)
  local g = even_battle(t, "casualties")
  play.logged(t, g, "France: 3 = 3, times 9 divisions: 27 casualties, 3 rout(s).")
  play.logged(t, g, "France wins the battle: 4 VP")
end)

test("5.621 reading routs: the side with more routed and eliminated loses, a tie to the Initiative", function(t)
  local g = even_battle(t, "routs")
  play.logged(t, g, "Great Britain has the Initiative")
  play.logged(t, g, "Great Britain wins the battle: 3 VP")
end)

-- Rules 5.617 and 5.622: the modifiers (outnumbered two to one, less cavalry, a tactical
-- edge, artillery, the better commander), and the pursuit: the winner's unrouted cavalry
-- and Tactical Rating beyond the loser's cost the loser a division a point. Set-up:
-- France's 10 divisions (4 cavalry, 1 artillery, Tactical 2, an edge) against Britain's 4
-- (no cavalry, Tactical 1); Initiative France; France rolls 2 (+3: 5, 50 casualties, 4
-- routs), Britain 6 (-2: 4, 16 casualties, 2 routs). Expected: France wins 2 VP; Britain
-- retreats and loses 4 + 2 - 1 = 5 to the pursuit.
test("5.617 the modifiers, and 5.622 the pursuit", function(t)
  local g = play.french_war(t, "GB")
  play.battle(g, "GB", { divisions = 10, cavalry = 4, artillery = 1, corps = 3, tactical = 2, edge = true },
    { divisions = 4, corps = 2, tactical = 1 }, { 5, 1 })
  g:act("attack", nil, { 2, 6 })
  play.logged(t, g, "France: 2 +1 tactical edge +1 artillery +1 the better commander = 5, times 10 divisions: 50 casualties, 4 rout(s).")
  play.logged(t, g, "Great Britain: 6 -1 outnumbered two to one -1 less cavalry = 4, times 4 divisions: 16 casualties, 2 rout(s).")
  play.logged(t, g, "France wins the battle: 2 VP; Great Britain retreats and loses 5 division(s) to the pursuit.")
end)

-- Rule 5.616: Massed Batteries roll a d10 an artillery division, each 10 eliminating two
-- enemy divisions; Night lets a side retreat with no pursuit and no VP to the victor.
-- Set-up: France (3 artillery) fires: 10, 4, 10; Britain, on its option, rolls a Night
-- (the fixture's 3) and retreats.
test("5.616 Massed Batteries, and a retreat by Night", function(t)
  local g = play.french_war(t, "GB")
  play.battle(g, "GB", { divisions = 8, artillery = 3, corps = 2 }, { divisions = 9, corps = 3, cavalry = 2 }, { 6, 1 })
  g:act("batteries", nil, { 10, 4, 10 })
  play.logged(t, g, "Massed batteries: 2 hit(s); Great Britain loses 4 division(s).")
  g:act("auxiliary", nil, { 3 })
  g:act("withdraw")
  play.logged(t, g, "France wins the battle: 0 VP; Great Britain retreats and loses 0 division(s) to the pursuit.")
  t:eq(g:state(), "player_turn")
end)

-- Rule 6.12 (its example): three infantry divisions listed at $6 built in Naples, 3
-- provinces from home, cost $7: 5% more a province. Set-up: two players; in the Fall 1805
-- Build Phase France (10 gold set by hand) buys them; Britain, in a deficit, may buy
-- nothing (4.221).
test("6.12 units listed at 6 built 3 provinces out cost 7", function(t)
  t:eq(season.build_cost(6, 3), 7)
  t:eq(season.build_cost(2, 0), 2, "at home, the list cost")
  t:eq(season.build_cost(2, 1), 2, "one division 5% more: still 2")
  local g = play.started(t, "two-player")
  g:act("draw")
  play.prepare(g)
  while g:state() == "player_turn" do
    g:act("done")
    play.prepare(g)
  end
  t:eq(g:state(), "build")
  g:set_counter("gold.FR", 10)
  g:set_counter("gold.GB", -3)
  g:act("build")
  g:act("set", 6)
  g:act("set", 3)
  t:eq(g:counter("gold.FR"), 3)
  g:act("build")
  g:act("set", 6)
  g:act("set", 0)
  t:eq(g:counter("gold.FR"), 3, "6 gold is more than France has: nothing bought")
  g:act("built")
  t:eq(g:prompt().seat, "GB")
  t:eq(g:legal(), { "built", "mat" }, "no purchase in a deficit")
end)

-- A four-player game at France's first turn proper (France first; its event carried out),
-- with `gold` set by hand for each power.
local function french_turn(t, gold)
  local g = play.started(t, "four-player")
  g:act("first")
  play.prepare(g)
  for power, n in pairs(gold or {}) do
    g:set_counter("gold." .. power, n)
  end
  return g
end

-- France declares war on Prussia and nobody tries to cancel it (the three others pass).
local function war_on_prussia(g)
  g:act("declare_war", "PR")
  for _ = 1, 3 do
    g:act("pass")
  end
end

-- The secret bids of Britain, Russia and Austria for Prussia (5.32), the dice given with the
-- last.
local function bids(g, gb, ru, au, dice)
  g:act_as("GB", "bid", gb)
  g:act_as("RU", "bid", ru)
  g:act_as("AU", "bid", au, dice)
end

-- Rules 4.62 and 4.621: any other player may try once, for 5 gold, to cancel a declaration
-- of war: two dice read as tens and ones, 95 or more. Set-up: France declares war on
-- Britain; Britain pays 5 and rolls 9 and 5 (95). Expected: cancelled; France may not
-- declare it again this Season.
test("4.621 a declaration of war is cancelled on 95 or more", function(t)
  t:eq(cancel.percent(9, 5), 95)
  t:eq(cancel.percent(10, 10), 100, "0 and 0 is a hundred")
  local g = french_turn(t, { GB = 12 })
  local vp = g:counter("vp.FR")
  g:act("declare_war", "GB")
  t:eq(g:prompt().seat, "GB")
  g:act("cancel", nil, { 9, 5 })
  t:eq(g:counter("gold.GB"), 7)
  t:eq(g:counter("vp.FR"), vp, "no VP paid for a cancelled declaration")
  t:eq(g:vars().wars, {})
  t:ok(not table.concat(g:legal(), " "):find("declare_war GB", 1, true), "not again this Season (4.623)")
end)

-- Rules 4.62 and 5.31: a failed cancellation ends the window (one try); the declarer pays
-- 10 VP and the war begins; at the Winterphase it costs him 5 gold (4.22).
test("5.31 a declaration of war costs 10 VP, and being at war 5 gold a year", function(t)
  local g = french_turn(t, { GB = 12 })
  local vp = g:counter("vp.FR")
  g:act("declare_war", "GB")
  g:act("cancel", nil, { 9, 4 })
  t:eq(g:state(), "player_turn", "one try only: the window is closed")
  t:eq(g:counter("vp.FR"), vp - 10)
  t:eq(g:vars().wars, { ["FR/GB"] = true })
  g:act("done")
  play.season(g)
  g:set_counter("gold.FR", 0)
  play.winter(g, { tax = { FR = 20 } })
  t:eq(g:counter("gold.FR"), 15, "20 in taxes less 5 for the war")
end)

-- Rule 5.32: an NPC attacked without an ally is bid for in gold, in secret, by the other
-- players; the highest pays and allies with it. Set-up: France declares war on Prussia;
-- Britain bids 5, Russia 8, Austria 0. Expected: Russia pays 8, Prussia its ally.
test("5.32 the attacked NPC goes to the highest secret bid", function(t)
  local g = french_turn(t, { GB = 10, RU = 10, AU = 10 })
  war_on_prussia(g)
  t:eq(g:state(), "npc_auction")
  bids(g, 5, 8, 0)
  t:eq(g:vars().npc_ally.PR, "RU")
  t:eq(g:counter("gold.RU"), 2)
  t:eq(g:counter("gold.GB"), 10)
end)

-- Rule 5.32: tied bids go to an open auction among the tied. Set-up: Britain and Russia
-- bid 5; Russia raises to 6, Britain drops out. Expected: Russia pays 6.
test("5.32 tied bids go to an open auction", function(t)
  local g = french_turn(t, { GB = 10, RU = 10, AU = 10 })
  war_on_prussia(g)
  bids(g, 5, 5, 0)
  t:eq(g:state(), "open_auction")
  t:eq(g:prompt().seat, "RU")
  g:act("raise", 6)
  t:eq(g:prompt().seat, "GB")
  g:act("drop")
  t:eq(g:vars().npc_ally.PR, "RU")
  t:eq(g:counter("gold.RU"), 4)
end)

-- Rule 5.33: when nobody bids, the other players roll and the highest runs the NPC's units
-- (ties roll again); it becomes Controlled and its chit goes into the cup. Set-up: France
-- declares war on Prussia; no bids; the rolls 3, 7, 7, then 2 and 9.
test("5.33 nobody bids: a caretaker by the dice, and a turn of its own", function(t)
  local g = french_turn(t)
  war_on_prussia(g)
  bids(g, 0, 0, 0, { 3, 7, 7, 2, 9 })
  t:eq(g:vars().npc.PR, "controlled")
  t:eq(g:vars().controller.PR, "AU")
  t:ok(g:json().zones.cup.count >= 1, "Prussia's chit in the cup")
end)

-- Rule 5.3: to declare war on a member of an alliance is to declare it on every member.
-- Set-up: Russia is allied with Prussia (the NPC Alliance Phase of 1806); in Spring France
-- declares war on Prussia. Expected: France is at war with Prussia and Russia.
test("5.3 war on an alliance member is war on the alliance", function(t)
  local g = play.started(t, "four-player")
  play.gains_npc(t, g, "RU", "PR", 6)
  g:act("first")
  play.prepare(g)
  t:ok(table.concat(g:legal(), " "):find("declare_war PR", 1, true), "Prussia may be declared on")
  war_on_prussia(g)
  t:eq(g:vars().wars, { ["FR/PR"] = true, ["FR/RU"] = true })
  t:eq(g:state(), "player_turn", "an allied NPC is not bid for")
end)

