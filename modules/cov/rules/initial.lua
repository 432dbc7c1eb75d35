-- Congress of Vienna: the Initial Phase (Playbook 16.1, 17.x, 18.4.4). In the solitaire
-- seatings with Handicap cards the turn begins by dealing them (rules/handicap.lua). The
-- turn's Initial Situation card is drawn and carried out top to bottom: its cards go to the hands, its
-- issues onto the Diplomacy Display, its special rules into force; what the card holds in
-- words only, or what the owner has not entered yet, becomes a step the players do by hand
-- and confirm. Then the Initial Environment Table (two modified rolls), British Fleet
-- Demobilization and, in The Clash of Armies, Austria's placement of Austria at War.

local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local setup = include("rules/setup.lua")
local handicap = include("rules/handicap.lua")
local solitaire = include("rules/solitaire.lua")
local steps = include("@lib/steps.lua")

local initial = {}

local STEPS = { "handicap", "draw", "cards", "issues", "special", "by_hand", "environment", "demobilization", "clash",
  "handicap_after" }

local function card_name(ctx, card)
  return ctx.data.cards[card].name
end

-- The turn's card: deck A (historic), the chosen deck, one of A/B/C at random, or the
-- scenario's own card (Intr-2).
local function draw_card(ctx)
  local spec = ctx.vars.situation
  local card
  if spec.cards then
    card = ctx:zone("situation.deck")[1]
  else
    local mode = ctx.vars.situation_mode
    local letter = mode == "historic" and "A" or mode
    if mode == "random" then
      local roll = ctx:roll(3, "Initial Situation card: 1 = A, 2 = B, 3 = C")
      letter = ({ "A", "B", "C" })[roll]
    end
    card = string.lower(letter) .. "_" .. ctx:turn()
  end
  if card == nil or ctx:card_zone(card) ~= "situation.deck" then
    error(string.format("the Initial Situation card for turn %d (%s) is not in the Initial Situation deck",
      ctx:turn(), tostring(card)), 0)
  end
  for _, old in ipairs(ctx:zone("situation.current")) do
    ctx:move_card(old, "situation.aside", "bottom")
  end
  ctx:move_card(card, "situation.current")
  ctx:flip(card, true)
  if not spec.cards then
    -- The turn's other versions are set aside.
    for _, other in ipairs({ "a", "b", "c" }) do
      local id = other .. "_" .. ctx:turn()
      if id ~= card and ctx:card_zone(id) == "situation.deck" then
        ctx:move_card(id, "situation.aside", "bottom")
      end
    end
  end
  ctx.vars.situation_card = card
  ctx:log(string.format("Turn %d, Initial Phase: the Initial Situation card is %s.", ctx:turn(), card_name(ctx, card)))
  return card
end

-- A field of the card, or nil (and a step by hand noted) when the owner has not entered it.
-- The card fields a situation card's steps read, as Card data labels them.
local FIELD_LABELS = {
  cards_to_hands = "Cards to hands", issues = "Issues placed", special = "Special rules",
  instructions = "Other instructions",
}

-- The card's `key`, or nil when it is not entered yet: the players then do that part by
-- hand from the printed card (the demo, whose placeholders lack it, leaves it out and says
-- so once).
local function field(ctx, card, key, words)
  if ctx:known("card", card, key) then
    return ctx.data.cards[card].fields[key]
  end
  if ctx:demo() then
    local skipped = ctx.locals.demo_skipped
    skipped[#skipped + 1] = words
    return nil
  end
  local list = ctx.locals.by_hand
  list[#list + 1] = string.format("%s: %s (not entered yet). Do it by hand as the printed card says; to have it done for you, fill in its %s in Card data.",
    card_name(ctx, card), words, FIELD_LABELS[key] or key)
  return nil
end

local function give_cards(ctx, card)
  local gifts = field(ctx, card, "cards_to_hands", "give the cards it names to the hands")
  if not gifts then
    return
  end
  for _, power in ipairs({ "RU", "AU", "BR", "FR" }) do
    local gift = gifts[power]
    if gift and not powers.out(ctx, power) then
      local zone = ctx:card_zone(gift)
      if zone == "deck" or zone == "discard" then
        ctx:move_card(gift, powers.hand_zone(ctx, power))
        ctx.vars.initial_cards[gift] = true
        ctx:log(string.format("%s takes %s into its hand.", powers.name(ctx, power), card_name(ctx, gift)))
      else
        ctx:log(string.format("%s should go to %s, but it is in %s: it stays there.", card_name(ctx, gift),
          powers.name(ctx, power), ctx.data.zones[zone] and ctx.data.zones[zone].name or "no zone"))
      end
    end
  end
end

-- One placement of the card: {issue, to = "table" | power (with distance) | "XX-7" (the
-- Seat: secured) | "war_of_1812", players = {…}}.
local function place_issue(ctx, entry)
  if not powers.applies(ctx, entry.players) then
    return
  end
  local piece = display.waiting(ctx, entry.issue)
  if piece == nil then
    ctx:log(string.format("No %s marker waits on the Diplomacy Display: nothing to place.",
      display.issue_words(ctx, entry.issue)))
    return
  end
  local name = ctx.data.pieces[piece].name
  local to = entry.to
  if to == "table" then
    display.put(ctx, piece, nil, 0)
    ctx:log(string.format("%s goes on the Negotiation Table.", name))
  elseif to == "war_of_1812" then
    ctx:place(piece, "front.g", "war_of_1812")
    ctx:log(string.format("%s goes into the War of 1812 box.", name))
  else
    local power, n = string.match(to, "^(%a%a)%-(%d)$")
    if power == nil then
      power, n = to, entry.distance
    end
    n = tonumber(n)
    local where = display.put(ctx, piece, power, n)
    if n >= display.SEAT then
      ctx.vars.secured[piece] = true
      ctx:log(string.format("%s goes on %s, secured.", name, where))
    else
      ctx:log(string.format("%s goes on %s.", name, where))
    end
  end
end

local function place_issues(ctx, card)
  local list = field(ctx, card, "issues", "place the issues it names")
  for _, entry in ipairs(list or {}) do
    place_issue(ctx, entry)
  end
end

-- The card's special rules, as data: see the field's documentation in data/situation.ron.
local function special(ctx, card)
  local list = field(ctx, card, "special", "apply its special rules")
  local rules = ctx.vars.turn_rules
  for _, rule in ipairs(list or {}) do
    if powers.applies(ctx, rule.players) then
      if rule.rule == "out" then
        ctx.vars.out_of_game[rule.power] = true
      elseif rule.rule == "passive" then
        rules.passive[rule.power] = true
        ctx:log(string.format("%s makes no wager, places no issues and does not negotiate, debate or offer trades this Diplomacy Phase.",
          powers.name(ctx, rule.power)))
      elseif rule.rule == "environment_card" then
        rules.environment_card[rule.power] = rule.card
      elseif rule.rule == "free_units" then
        local pool = "pool." .. ctx.data.unit_kinds[rule.kind].owner
        setup.ensure_pool(ctx, rule.kind)
        ctx:move_units(pool, rule.to, rule.kind, rule.n)
        ctx:log(string.format("%d %s from the force pool to %s, at no cost.", rule.n,
          ctx.data.unit_kinds[rule.kind].name, ctx.data.boxes[rule.to].name))
      elseif rule.rule == "no_withdrawals" then
        rules.no_withdrawals = true
        ctx:log("No withdrawals before battle this turn.")
      elseif rule.rule == "battle_drm" then
        -- A battle modifier for the turn (16.4: the Initial Situation card's DRM).
        rules.battle_drm = rules.battle_drm or {}
        table.insert(rules.battle_drm, { side = rule.side, front = rule.front, drm = rule.drm })
        ctx:log(string.format("This turn %s %+d in battle%s.", rule.side == "FR" and "France has" or "the Allies have",
          rule.drm, rule.front and (" on Front " .. rule.front) or ""))
      elseif rule.rule == "card_dead" then
        if ctx:card_zone(rule.card) ~= "removed" then
          ctx:move_card(rule.card, "removed")
        end
        ctx:log(string.format("%s is dead: out of the game.", card_name(ctx, rule.card)))
      else
        error(string.format("%s: unknown special rule '%s' (rules: out, passive, environment_card, free_units, no_withdrawals, battle_drm, card_dead)",
          card_name(ctx, card), tostring(rule.rule)), 0)
      end
    end
  end
  local words = field(ctx, card, "instructions", "carry out its other instructions")
  if words and words ~= "" then
    ctx.locals.by_hand[#ctx.locals.by_hand + 1] = string.format("%s: %s", card_name(ctx, card), words)
  end
end

local function clamp(n)
  return math.max(1, math.min(6, n))
end

-- The Initial Environment Table (16.1): the first modified roll picks the column (the
-- power that takes one of its national character cards, the US Militia, the US Military
-- Operation), the second the row of the maritime struggle.
local function environment(ctx, card)
  local drm = ctx.data.cards[card].fields.environment_drm
  local tables = ctx.data.tables
  local first = ctx:roll(6, "Initial Environment Table, first roll")
  local column = clamp(first + (drm[1] or 0))
  local second = ctx:roll(6, "Initial Environment Table, second roll")
  local row = clamp(second + (drm[2] or 0))
  ctx:log(string.format("Initial Environment Table: first roll %d %+d = column %d; second roll %d %+d = row %d.",
    first, drm[1] or 0, column, second, drm[2] or 0, row))
  local key = tostring(column)
  local militia = tables.environment_militia[key]
  if militia > 0 then
    setup.ensure_pool(ctx, "US_militia")
    local n = math.min(militia, ctx:units("pool.FR", "US_militia"))
    ctx:move_units("pool.FR", "war_of_1812", "US_militia", n)
    ctx:log(string.format("%d US Militia go into the War of 1812 box%s.", n,
      n < militia and string.format(" (the force pool had only %d of %d)", n, militia) or ""))
  end
  if tables.environment_us_mil_op[key] then
    place_issue(ctx, { issue = "mil_op_us", to = "war_of_1812" })
  else
    ctx:log("No US Military Operation this turn.")
  end
  local maritime = tables.environment_maritime[row .. "/" .. column]
  if maritime == "+1 BR Resource" then
    ctx:add_counter("resources.BR", 1)
    ctx:log("Maritime struggle: +1 Resource for Britain.")
  else
    ctx:log("Maritime struggle: no effect.")
  end
  return tables.environment_card[key]
end

initial.initial = {}

function initial.initial.on_enter(ctx)
  ctx.locals.step = 0
  ctx.locals.by_hand, ctx.locals.demo_skipped = {}, {}
  ctx.vars.secured = {}
  ctx.vars.initial_cards = {}
  ctx.vars.turn_rules = { passive = {}, environment_card = {} }
  ctx.vars.drm_bonuses = {}
  ctx.vars.government_bonuses = {}
  ctx.vars.government_costs = {}
end

-- Calls the sub-procedure a library step returned (`steps.call`), if any; whether it did.
local function call(ctx, sub)
  if sub then
    ctx:call(sub.call, sub.locals)
    return true
  end
  return false
end

-- Runs the steps in order; a step that needs the players calls a sub-procedure, and the
-- next run goes on from the step after it.
local function run_step(ctx, step, card)
  local locals = ctx.locals
  if step == "handicap" then
    handicap.deal(ctx)
    return call(ctx, handicap.use(ctx, "start of the turn"))
  elseif step == "handicap_after" then
    return call(ctx, handicap.use(ctx, "after the Initial Phase"))
  elseif step == "draw" then
    draw_card(ctx)
  elseif step == "cards" then
    give_cards(ctx, card)
  elseif step == "issues" then
    place_issues(ctx, card)
  elseif step == "special" then
    special(ctx, card)
  elseif step == "by_hand" then
    if #locals.demo_skipped > 0 then
      ctx:log(string.format("Demo: %s has no placeholders to %s; the demo leaves that out (with your copy's values, the game does it or asks you to).",
        card_name(ctx, card), table.concat(locals.demo_skipped, ", ")))
    end
    if #locals.by_hand > 0 then
      ctx:call("checklist", { items = locals.by_hand, title = card_name(ctx, card) })
      return true
    end
  elseif step == "environment" then
    local power = environment(ctx, card)
    local named = ctx.vars.turn_rules.environment_card[power]
    if powers.out(ctx, power) then
      ctx:log(string.format("The table picks %s, which is out of the game: nobody takes an extra card.", powers.name(ctx, power)))
    elseif named then
      ctx:move_card(named, powers.hand_zone(ctx, power))
      ctx.vars.initial_cards[named] = true
      ctx:log(string.format("The table picks %s, which must take %s.", powers.name(ctx, power), card_name(ctx, named)))
    else
      ctx:call(solitaire.bot_power(ctx, power) and "chart_extra_card" or "extra_card", { power = power })
      return true
    end
  elseif step == "demobilization" then
    if initial.fleet_pairs(ctx)[1] then
      ctx:call("demobilization", {})
      return true
    end
  elseif step == "clash" then
    if ctx.vars.austria_at_war_choice and ctx:turn() == ctx.vars.first_turn
      and display.waiting(ctx, "austria_at_war") then
      ctx:call("clash", {})
      return true
    end
  end
  return false
end

function initial.initial.run(ctx)
  local locals = ctx.locals
  while true do
    locals.step = locals.step + 1
    local step = STEPS[locals.step]
    if step == nil then
      ctx:pop({})
      return
    end
    if run_step(ctx, step, ctx.vars.situation_card) then
      return
    end
  end
end

-- Steps of the card the players carry out by hand, confirmed one at a time.
initial.checklist = {}

function initial.checklist.prompt(ctx)
  local locals = ctx.locals
  local item = locals.items[(locals.done or 0) + 1]
  return {
    text = string.format("Do this by hand on the table, then confirm (%d of %d): %s", (locals.done or 0) + 1, #locals.items, item),
    actions = { { name = "done", label = "Done" } },
  }
end

function initial.checklist.done(ctx)
  local locals = ctx.locals
  locals.done = (locals.done or 0) + 1
  ctx:log("Done by hand: " .. locals.items[locals.done])
  if locals.done >= #locals.items then
    ctx:pop({})
  end
end

-- The power the table picks takes one of its national character cards from the deck, of
-- its choice (16.1: Austria took KAISER FRANZ). Cards whose nation is not entered yet are
-- offered too; taking one asks for its nation, and a card of another nation is refused.
initial.extra_card = {}

function initial.extra_card.prompt(ctx)
  local power = ctx.locals.power
  local mine, unknown = {}, {}
  for _, card in ipairs(ctx:zone("deck")) do
    local known = ctx:known("card", card, "nation") and ctx:known("card", card, "kind")
    if not known then
      unknown[#unknown + 1] = { name = "take", arg = card, card = card,
        label = card_name(ctx, card) .. " (nation not entered yet)" }
    else
      local f = ctx.data.cards[card].fields
      if f.nation == power and f.kind == "character" then
        mine[#mine + 1] = { name = "take", arg = card, card = card, label = card_name(ctx, card) }
      end
    end
  end
  for _, action in ipairs(unknown) do
    mine[#mine + 1] = action
  end
  if #mine == 0 then
    mine[1] = { name = "none", label = "There is none in the deck: take no card" }
  end
  return {
    seat = powers.seat(ctx, power),
    text = string.format("The Initial Environment Table picks %s: take one of your national character cards from the deck.",
      powers.name(ctx, power)),
    actions = mine,
  }
end

function initial.extra_card.take(ctx, card)
  local power = ctx.locals.power
  local f = ctx.data.cards[card].fields
  -- A card offered before its nation was entered may turn out to be another's: it stays in
  -- the deck, and the power takes another.
  if f.nation ~= power or f.kind ~= "character" then
    ctx:log(string.format("%s is not one of %s's national character cards: it stays in the deck.",
      card_name(ctx, card), powers.name(ctx, power)))
    return
  end
  ctx:move_card(card, powers.hand_zone(ctx, power))
  ctx.vars.initial_cards[card] = true
  ctx:log(string.format("%s takes %s from the deck.", powers.name(ctx, power), card_name(ctx, card)))
  ctx:pop({})
end

function initial.extra_card.none(ctx)
  ctx:log(string.format("%s has no national character card left in the deck.", powers.name(ctx, ctx.locals.power)))
  ctx:pop({})
end

-- A power a Playbook bot plays takes its extra card from its chart (20.1.1, L1502-L1507;
-- 21.1.1, L1771-L1779): 2d6 on Table 20.1.1 by the political status (Limited War,
-- Armistice, General War) or on Table 21.1, rolled again while the card is not in the draw
-- deck or the discard pile (20 and 21 say: already in the power's hand by the Initial
-- Situation card; RULES-GAPS.md); the French bot takes BERTHIER too when the Grande Armée
-- stands in Paris (L1777). After twelve rolls that give no card, the power chooses as
-- without the chart. The tables are owner data (data/bot_charts.ron).
local function takeable(ctx, card)
  local zone = ctx:card_zone(card)
  return zone == "deck" or zone == "discard"
end

-- The rolls on the power's chart until one gives a card it may take (`locals.taken`).
local function chart_rolls(ctx)
  local power = ctx.locals.power
  local french = power == "FR"
  local chart = french and "21.1" or "20.1.1"
  for _ = 1, 12 do
    local total = ctx:roll(6, "Table " .. chart) + ctx:roll(6, "Table " .. chart)
    local key = french and tostring(total) or (ctx.vars.war_status .. "/" .. total)
    local table_id = french and "french_extra_card" or "allied_extra_card"
    local card = ctx.data.tables[table_id][key]
    local _, row = ctx:chart_row(table_id, key)
    if takeable(ctx, card) then
      ctx:move_card(card, powers.hand_zone(ctx, power))
      ctx.vars.initial_cards[card] = true
      ctx:log(string.format("%s, %s: %s takes %s.", chart, row, powers.name(ctx, power), card_name(ctx, card)))
      local _, space = ctx:space_of("block.grande_armee")
      if french and space == "paris" and takeable(ctx, "berthier") then
        ctx:move_card("berthier", "hand.FR")
        ctx.vars.initial_cards.berthier = true
        ctx:log("The Grande Armée is in Paris: France takes Berthier too (21.1.1).")
      end
      ctx.locals.taken = true
      return
    end
    ctx:log(string.format("%s, %s: %s is not in the draw deck or the discard pile; the dice are rolled again.", chart, row,
      card_name(ctx, card)))
  end
  ctx:log(string.format("Twelve rolls on Table %s give no card in the deck: %s chooses its card.", chart, powers.name(ctx, power)))
end

initial.chart_extra_card = steps.procedure("20.1.1 and 21.1.1 A bot's extra card", {
  { name = "up to twelve rolls on the chart", run = chart_rolls },
  {
    name = "no card in twelve rolls: the power chooses",
    calls = "extra_card",
    run = function(ctx)
      if not ctx.locals.taken then
        return steps.call("extra_card", { power = ctx.locals.power })
      end
    end,
  },
  finish = function()
    return {}
  end,
})

-- British Fleet Demobilization (16.1): Britain may turn two fleets, from any boxes, into 1
-- VP or 1 Resource, as often as it likes (20.1.2 speaks of "two or more fleets").
local function fleet_boxes(ctx)
  local list = {}
  for _, box in ipairs(ctx.data.box_ids) do
    if box ~= "pool.BR" and (ctx:box(box).BR_fleet or 0) > 0 then
      list[#list + 1] = box
    end
  end
  return list
end

function initial.fleet_pairs(ctx)
  local boxes = fleet_boxes(ctx)
  local pairs_ = {}
  for i, a in ipairs(boxes) do
    for j = i, #boxes do
      local b = boxes[j]
      if a ~= b or ctx:units(a, "BR_fleet") >= 2 then
        pairs_[#pairs_ + 1] = { a, b }
      end
    end
  end
  return pairs_
end

initial.demobilization = {}

function initial.demobilization.prompt(ctx)
  local actions = { { name = "keep", label = "Keep the fleets: end the Initial Phase" } }
  for _, pair in ipairs(initial.fleet_pairs(ctx)) do
    local from = pair[1] == pair[2] and ("2 fleets from " .. ctx.data.boxes[pair[1]].name)
      or string.format("a fleet from %s and one from %s", ctx.data.boxes[pair[1]].name, ctx.data.boxes[pair[2]].name)
    for _, reward in ipairs({ "VP", "Resource" }) do
      actions[#actions + 1] = { name = "demobilize", arg = { from = pair, reward = reward }, box = pair[1],
        label = string.format("Demobilize %s for 1 %s", from, reward) }
    end
  end
  return { seat = "BR", text = "British Fleet Demobilization: two fleets for 1 VP or 1 Resource, as often as you like.", actions = actions }
end

function initial.demobilization.demobilize(ctx, arg)
  local a, b = arg.from[1], arg.from[2]
  local need = {}
  need[a] = (need[a] or 0) + 1
  need[b] = (need[b] or 0) + 1
  for box, n in pairs(need) do
    if ctx:units(box, "BR_fleet") < n then
      error(string.format("%s holds fewer than %d fleets", ctx.data.boxes[box].name, n), 0)
    end
  end
  ctx:move_units(a, "pool.BR", "BR_fleet", 1)
  ctx:move_units(b, "pool.BR", "BR_fleet", 1)
  if arg.reward == "VP" then
    ctx:add_counter("vp.BR", 1)
  else
    ctx:add_counter("resources.BR", 1)
  end
  ctx:log(string.format("Britain demobilizes two fleets for 1 %s.", arg.reward))
  if not initial.fleet_pairs(ctx)[1] then
    ctx:pop({})
  end
end

function initial.demobilization.keep(ctx)
  ctx:log("Britain keeps its fleets.")
  ctx:pop({})
end

-- The Clash of Armies (17.3.3): at the end of the Initial Phase Austria puts Austria at War
-- on its track's space 1, or on the Negotiation Table for 1 VP.
initial.clash = {}

function initial.clash.prompt(ctx)
  local piece = display.waiting(ctx, "austria_at_war")
  return {
    seat = powers.seat(ctx, "AU"),
    text = "Austria: put Austria at War on your track's space 1, or on the Negotiation Table for 1 VP.",
    actions = {
      { name = "track", label = "Austria at War on Austria 1", piece = piece },
      { name = "table", label = "Austria at War on the Negotiation Table (+1 VP)", piece = piece },
    },
  }
end

function initial.clash.track(ctx)
  display.put(ctx, display.waiting(ctx, "austria_at_war"), "AU", 1)
  ctx:log("Austria puts Austria at War on Austria 1.")
  ctx:pop({})
end

function initial.clash.table(ctx)
  display.put(ctx, display.waiting(ctx, "austria_at_war"), nil, 0)
  local vp = ctx:add_counter("vp.AU", 1)
  ctx:log(string.format("Austria puts Austria at War on the Negotiation Table: +1 VP (%d).", vp))
  ctx:pop({})
end

return initial
