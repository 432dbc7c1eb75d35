-- Congress of Vienna (GMT Games, 2024): the rules' hook table. Set-up follows the
-- Playbook's scenarios (17, 18.4); each turn (rules/turn.lua) is played by the rules:
-- the Initial Phase (rules/initial.lua), the Diplomacy Phase (rules/diplomacy.lua), the
-- Government Phase (rules/government.lua, rules/issues.lua), the War Phase (rules/war.lua,
-- rules/battle.lua) and the End of Turn (rules/endturn.lua, rules/victory.lua).

local deck = include("@lib/deck.lua")
local setup = include("rules/setup.lua")
local turn = include("rules/turn.lua")
local initial = include("rules/initial.lua")
local diplomacy = include("rules/diplomacy.lua")
local government = include("rules/government.lua")
local decide = include("rules/decide.lua")
local war = include("rules/war.lua")
local battle = include("rules/battle.lua")
local endturn = include("rules/endturn.lua")
local victory = include("rules/victory.lua")
local lutzen_france = include("bots/lutzen_france.lua")
local standin = include("bots/standin.lua")
local french_bot = include("bots/french_bot.lua")
local allied_bot = include("bots/allied_bot.lua")
local named = include("rules/options.lua")
local effects = include("rules/effects.lua")
local hands = include("rules/hands.lua")
local cdgsm = include("rules/cdgsm.lua")
local rounds = include("rules/rounds.lua")
local solo_diplomacy = include("rules/solo_diplomacy.lua")
local handicap = include("rules/handicap.lua")

local function start(ctx, scenario, options)
  local vars = ctx.vars
  local seating, mode, humans = setup.options(scenario, options)
  handicap.check(seating, options)
  vars.options = named.given(ctx, options)
  vars.seating = seating
  vars.situation_mode = mode
  vars.humans = humans
  vars.lutzen = scenario.id == "lutzen-bautzen"
  vars.out_of_game = { AU = vars.austria_out == true or nil }
  if seating == "two-players" and vars.two_player_vp then
    for power, vp in pairs(vars.two_player_vp) do
      ctx:set_counter("vp." .. power, vp)
    end
  end
  setup.draw_deck(ctx)
  setup.situation_deck(ctx, vars.situation)
  local issues = setup.issues(ctx, vars.removed_issues)
  local missing = setup.pools(ctx)
  vars.pools_not_entered = missing
  ctx:log(string.format("%s set up: %s; %d cards in the deck, %d issues on the Diplomacy Display.",
    scenario.name, ctx.data.options.seating.values[seating], ctx:count("deck"), issues))
  if #missing > 0 then
    local kinds = {}
    for i, kind in ipairs(missing) do
      kinds[i] = ctx.data.unit_kinds[kind] and ctx.data.unit_kinds[kind].name or kind
    end
    ctx:log("Force pools are left empty for kinds whose totals are not entered: " .. table.concat(kinds, ", ") .. ".")
  end
  setup.solitaire_kutuzov(ctx)
  setup.starting_generalissimo(ctx)
  hands.seat_hands(ctx)
  -- `--option cdgsm=FR` (or allies): the card-driven solo method (19) on its own, for tests
  -- and practice, instead of the first turn.
  if options.cdgsm ~= nil then
    cdgsm.start_desk(ctx, options.cdgsm)
    return
  end
  ctx:call("begin")
end

-- The table as the scenario sets it up, before the first turn's Initial Situation card is
-- drawn: the players check it against the Playbook's set-up, then begin.
local begin = {}

function begin.prompt(ctx)
  return {
    text = string.format("%s is set up (Playbook %s). Begin turn %d: its Initial Phase draws the Initial Situation card.",
      ctx.data.scenarios[ctx.scenario].name, ctx.vars.playbook, ctx:turn()),
    actions = { { name = "begin", label = string.format("Begin turn %d", ctx:turn()) } },
  }
end

function begin.begin(ctx)
  ctx:replace("turn")
end

-- Invariants: every card is somewhere; every army block stands on its own front; no power
-- has more Military Support markers on the table than it owns; the Generalissimo's marker
-- stands with its army; every Military Operation placed with an army this War Phase
-- stands with it.
local function check(ctx)
  local all, why = deck.all_cards_on_table(ctx)
  if not all then
    return false, why
  end
  for _, id in ipairs(ctx.data.piece_ids) do
    local piece = ctx.data.pieces[id]
    if piece.kind == "block" then
      local place = ctx:space_of(id)
      local front = "front." .. string.lower(piece.props.front)
      if place ~= front then
        return false, string.format("%s is on %s, not on %s", id, tostring(place), front)
      end
    end
  end
  for _, power in ipairs({ "FR", "RU", "AU", "BR" }) do
    if ctx:known("table", "military_support_markers", power) then
      local kind, n = power .. "_support", 0
      for _, box in ipairs(ctx.data.box_ids) do
        n = n + (ctx:box(box)[kind] or 0)
      end
      if n > ctx.data.tables.military_support_markers[power] then
        return false, string.format("%d %s markers on the table, %d owned", n, kind, ctx.data.tables.military_support_markers[power])
      end
    end
  end
  local g = ctx.vars.generalissimo
  -- (A Generalissimo held from the start heads no army until the first War Phase.)
  if g and g.army then
    local _, marker = ctx:space_of("generalissimo." .. g.power)
    local _, army = ctx:space_of(g.army)
    if marker ~= army then
      return false, string.format("the Generalissimo marker is on %s, its army on %s", tostring(marker), tostring(army))
    end
  end
  for _, op in ipairs((ctx.vars.war or {}).ops or {}) do
    if op.marker ~= "napoleon" and string.find(op.target, "^block%.") then
      local _, marker = ctx:space_of(op.marker)
      local _, army = ctx:space_of(op.target)
      if marker ~= army then
        return false, string.format("%s is on %s, its army on %s", op.marker, tostring(marker), tostring(army))
      end
    end
  end
  return true
end

local states = { begin = begin, turn = turn.turn }
for _, group in ipairs({ initial, diplomacy, rounds, solo_diplomacy, government, war, battle, endturn, cdgsm, decide,
  handicap }) do
  for name, state in pairs(group) do
    if type(state) == "table" then
      states[name] = state
    end
  end
end

-- What every seat may see beside the table: who would win if the game ended now, and why
-- (the scenario's and the seating's victory rule, 17, 18, 20.12, 21.11, 22.2).
local function view(ctx, seat)
  local winners, why = victory.winners(ctx)
  local names = {}
  for i, power in ipairs(winners) do
    names[i] = ctx.data.seats[power].name
  end
  local who = #names > 0 and table.concat(names, " and ") or "no winner"
  return { if_the_game_ended_now = who .. ": " .. why }
end

return {
  setup = start,
  states = states,
  effects = effects,
  view = view,
  check = check,
  -- standin_allies: the stand-in's name before it played every power (older saves name it).
  bots = { lutzen_france = lutzen_france, standin = standin, french_bot = french_bot, allied_bot = allied_bot, standin_allies = standin },
}
