-- La Guerre de l'Empereur: the calendar (1.2, 3.6) and the Combat Seasons' chit cup (4.5,
-- 4.6). Each Combat Season puts in the cup a turn chit for every Player Country and every
-- Controlled NPC; France may go first; each player whose turn ends draws the next chit;
-- the Mutual Build Phase closes the Season. After Fall comes the next year's Winterphase;
-- the game ends at the end of Fall 1815, or when a power reaches its Victory Point
-- objective (7.0, 7.1).

local alliance = include("rules/alliance.lua")
local cancel = include("rules/cancel.lua")
local battle = include("rules/battle.lua")
local form = include("@lib/form.lua")
local mat = include("rules/mat.lua")
local naval = include("rules/naval.lua")
local peace = include("rules/peace.lua")
local powers = include("rules/powers.lua")
local war = include("rules/war.lua")

local season = {}

season.NEXT = { Spring = "Summer", Summer = "Fall" }

local name = powers.name

local function date(ctx)
  return string.format("%s %d", ctx.vars.season, ctx.vars.year)
end

--- The powers whose chits go in the cup (4.6): the Player Countries and the Controlled
--- NPCs (an inactive NPC's or an Allied NPC's does not).
function season.in_cup(ctx)
  local powers = {}
  for _, power in ipairs(ctx.vars.powers) do
    local npc = ctx.vars.npc[power]
    if npc == nil or npc == "controlled" then
      powers[#powers + 1] = power
    end
  end
  return powers
end

--- The first power to reach its Victory Point objective (7.0), if any.
function season.victor(ctx)
  for _, power in ipairs(ctx.vars.pcs) do
    if ctx:counter("vp." .. power) >= ctx.data.tables.victory_objective[power] then
      return power
    end
  end
  return nil
end

--- The ranking at the end (7.0): each Player Country by the share of its objective it has.
function season.finish(ctx, why)
  local scores, best, winners = {}, nil, {}
  for _, power in ipairs(ctx.vars.pcs) do
    local vp = ctx:counter("vp." .. power)
    scores[power] = vp
    local share = vp / ctx.data.tables.victory_objective[power]
    if best == nil or share > best then
      best, winners = share, { power }
    elseif share == best then
      winners[#winners + 1] = power
    end
  end
  ctx:game_over({ winners = winners, scores = scores, text = why })
end

season.states = {}

-- The Turn Start Phase: the chits in the cup; each alliance of two or more Player
-- Countries may declare Military Cooperation (4.61), moving on one member's chit, subject
-- to a cancel window; then France's option to go first.
local turn_start = {}
season.states.turn_start = turn_start

--- The alliances of two or more Player Countries, each as its members in the powers' order.
function season.coalitions(ctx)
  local by, list = {}, {}
  for _, power in ipairs(ctx.vars.pcs) do
    local id = ctx.vars.league[power]
    if id then
      if not by[id] then
        by[id] = {}
        list[#list + 1] = by[id]
      end
      table.insert(by[id], power)
    end
  end
  return list
end

function turn_start.on_enter(ctx)
  ctx:set_phase(date(ctx) .. ": Turn Start Phase")
  ctx.vars.coalition = {}
  for power, party in pairs(ctx.vars.peace_party) do
    party.quiet = not powers.in_war(ctx, power)
    ctx.vars.peace_party[power] = party
  end
  for _, power in ipairs(season.in_cup(ctx)) do
    ctx:move_card("chit." .. power, "cup")
  end
  ctx:shuffle("cup")
  ctx.locals.n = 1
end

function turn_start.prompt(ctx)
  local l = ctx.locals
  local leagues = season.coalitions(ctx)
  local members = leagues[l.n]
  if members then
    local actions = {}
    for _, m in ipairs(members) do
      actions[#actions + 1] = { name = "cooperate", arg = m, label = string.format("Declare Military Cooperation, on %s's chit", name(ctx, m)) }
    end
    actions[#actions + 1] = { name = "no_cooperation", label = "No Military Cooperation" }
    return {
      seat = members[1],
      text = string.format("%s: 4.61 %s may declare Military Cooperation (one Player Turn together, on one chit)", date(ctx), powers.names(ctx, members)),
      actions = actions,
    }
  end
  -- France is a Player Country in every game (3.0); it may not go first while it
  -- cooperates with a Player Country ally (4.6).
  local actions = { { name = "draw", label = "Draw the first chit" } }
  if not (ctx.vars.coalition.FR or ctx:card_zone("chit.FR") ~= "cup") then
    table.insert(actions, 1, { name = "first", label = "France goes first" })
  end
  return {
    seat = "FR",
    text = date(ctx) .. ": 4.6 France may take the first Player Turn, or put its chit in the cup and draw",
    actions = actions,
  }
end

function turn_start.cooperate(ctx, head)
  local l = ctx.locals
  local members = season.coalitions(ctx)[l.n]
  l.head = head
  local words = string.format("%s declare Military Cooperation", powers.names(ctx, members))
  if not cancel.open(ctx, words, members) then
    turn_start.on_resume(ctx, { cancelled = false })
  end
end

function turn_start.on_resume(ctx, result)
  local l = ctx.locals
  local members = season.coalitions(ctx)[l.n]
  if not result.cancelled then
    ctx.vars.coalition[l.head] = members
    for _, m in ipairs(members) do
      if m ~= l.head then
        ctx:move_card("chit." .. m, "chits", "bottom")
      end
    end
    ctx:log(string.format("%s: %s move together this Season, on %s's chit (4.61).", date(ctx), powers.names(ctx, members), name(ctx, l.head)))
  end
  l.n = l.n + 1
end

function turn_start.no_cooperation(ctx)
  ctx.locals.n = ctx.locals.n + 1
end

local function draw(ctx)
  if ctx:count("cup") == 0 then
    ctx:replace("build")
    return
  end
  local chit = ctx:zone("cup")[1]
  ctx:move_card(chit, "drawn", "bottom")
  ctx:flip(chit, true)
  local power = chit:match("^chit%.(.+)$")
  local members = ctx.vars.coalition[power]
  if members then
    ctx:log(string.format("%s: %s's chit is drawn: %s take their Player Turns together.", date(ctx), name(ctx, power), powers.names(ctx, members)))
  else
    ctx:log(string.format("%s: %s's chit is drawn.", date(ctx), name(ctx, power)))
  end
  season.begin_turn(ctx, power, season.partners(ctx, power))
end

--- The members of `power`'s coalition who take their turns after it (4.61).
function season.partners(ctx, power)
  local list = {}
  for _, m in ipairs(ctx.vars.coalition[power] or {}) do
    if m ~= power then
      list[#list + 1] = m
    end
  end
  return list
end

--- A power's turn: a Player Country's begins with its Turn Preparation (4.7); a Controlled
--- NPC's with its turn proper (only PCs roll on the Event Table, 4.72). `queue`: the
--- members of its coalition whose turns follow, before the next chit.
function season.begin_turn(ctx, power, queue)
  if ctx.vars.pcs_set[power] then
    ctx:replace("preparation", { power = power, queue = queue or {} })
  else
    ctx:replace("player_turn", { power = power, queue = queue or {} })
  end
end

function turn_start.first(ctx)
  ctx:move_card("chit.FR", "drawn", "bottom")
  ctx:flip("chit.FR", true)
  ctx:log(string.format("%s: France takes the first Player Turn.", date(ctx)))
  season.begin_turn(ctx, "FR", season.partners(ctx, "FR"))
end

function turn_start.draw(ctx)
  draw(ctx)
end

-- A Player Turn (5.0): its steps in their order, the Peace Step (1), the Alliance Step
-- (2), the War Declaration Step (3), then the Naval and Land Phases (4), played at the
-- table with the calculators; an action of a later step closes the earlier ones. Its
-- player draws the next chit when it ends.
local player_turn = {}
season.states.player_turn = player_turn

season.STEPS = { "Peace Step", "Alliance Step", "War Declaration Step", "Naval and Land Phases" }

-- The step each action belongs to.
local STEP_OF = {
  offer_peace = 1, surrender = 1,
  ally = 2, leave = 2, break_npc = 2,
  declare_war = 3,
  naval = 4, battle = 4,
  done = 5,
}

function player_turn.on_enter(ctx)
  ctx:set_phase(string.format("%s: %s's Player Turn", date(ctx), name(ctx, ctx.locals.power)))
  ctx.locals.step = 1
end

-- The declarations of war `power` owes, in the powers' order (those it may still make).
local function owed(ctx, power)
  local list = {}
  for _, target in ipairs(ctx.vars.powers) do
    local ally = (ctx.vars.owed[power] or {})[target]
    if ally and not powers.at_war(ctx, power, target) and not powers.allied(ctx, power, target)
      and not powers.enforced(ctx, power, target) then
      list[#list + 1] = target
    end
  end
  return list
end

function player_turn.prompt(ctx)
  local l = ctx.locals
  local power = l.power
  local seat = ctx.vars.npc[power] == "controlled" and ctx.vars.controller[power] or power
  local actions = {}
  local function add(list)
    for _, action in ipairs(list) do
      if (STEP_OF[action.name] or l.step) >= l.step then
        actions[#actions + 1] = action
      end
    end
  end
  local pc = ctx.vars.pcs_set[power]
  add(peace.actions(ctx, power))
  if pc then
    add(alliance.actions(ctx, power))
    local declare = {}
    for _, target in ipairs(war.declarable(ctx, power)) do
      declare[#declare + 1] = { name = "declare_war", arg = target, label = string.format("Declare war on %s (10 VP, 5.31)", powers.names(ctx, powers.alliance(ctx, target))) }
    end
    add(declare)
    -- The Continental System (4.24, 4.243): France declares or cancels it; another player
    -- (Britain excepted: the embargo is against it) joins or leaves it of his own will (the
    -- conditions are the table's).
    local embargo = ctx.vars.embargo
    if power == "FR" then
      actions[#actions + 1] = embargo.FR and { name = "cancel_embargo", label = "Cancel the Continental System" }
        or { name = "declare_embargo", label = "Declare the Continental System (French troops in Berlin, or allied with Prussia)" }
    elseif embargo.FR and power ~= "GB" then
      actions[#actions + 1] = embargo[power] and { name = "leave_embargo", label = "Leave the Continental System" }
        or { name = "join_embargo", label = "Join the Continental System" }
    end
  end
  -- A power fights only the powers it is at war with (5.3).
  if powers.in_war(ctx, power) then
    add({
      { name = "naval", label = "Resolve a naval combat (5.44)" },
      { name = "battle", label = "Resolve a land battle (5.61)" },
    })
  end
  if pc then
    actions[#actions + 1] = { name = "mat", label = "Adjust my Player Mat (hidden from the other players, 2.5)" }
  end
  table.insert(actions, 1, { name = "done", label = "End the turn and draw" })
  local text = string.format("%s: %s's Player Turn, %s (moves played at the table)", date(ctx), name(ctx, power), season.STEPS[math.min(l.step, 4)])
  local debts = owed(ctx, power)
  if pc and l.step <= 3 and #debts > 0 then
    text = text .. string.format("; it owes its allies war on %s in this War Declaration Step, or leaves them (5.24)", powers.names(ctx, debts))
  end
  if pc and l.step <= 2 and ctx.vars.deferred[power] then
    text = text .. "; the deferred event comes at the end of the Alliance Step: " .. ctx.vars.deferred[power]
  end
  return { seat = seat, text = text, actions = actions }
end

--- The War Declaration Step is over: each ally `power` still owes a declaration to is
--- left, at 5 VP for its alliance of players (5.24) and 5 VP for each NPC (5.23).
local function unpaid(ctx, power)
  local creditors = {}
  for _, target in ipairs(owed(ctx, power)) do
    local ally = ctx.vars.owed[power][target]
    if not creditors[ally] then
      creditors[ally] = true
      creditors[#creditors + 1] = ally
    end
  end
  local broken = {}
  for _, ally in ipairs(creditors) do
    if not broken[ally] then
      broken[ally] = true
      if ctx.vars.npc_ally[ally] == power then
        powers.drop_npc(ctx, power, ally)
        local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
        ctx:log(string.format("%s did not declare war on %s's enemies: the alliance is broken and it pays %d VP (%d VP) (5.23); %s is %s.",
          name(ctx, power), name(ctx, ally), powers.BREAK_VP, vp, name(ctx, ally), ctx.vars.npc[ally]))
      elseif ctx.vars.league[power] and powers.allied(ctx, power, ally) then
        powers.leave(ctx, power)
        local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
        ctx:log(string.format("%s did not declare war on its allies' enemies: it leaves the alliance and pays %d VP (%d VP) (5.24).",
          name(ctx, power), powers.BREAK_VP, vp))
      end
    end
  end
  ctx.vars.owed[power] = nil
end

-- Moves the turn on to step `to`, closing the steps passed: the deferred event at the end
-- of the Alliance Step (4.722); the debts of war and the victory check at the end of the
-- War Declaration Step (5.24, 7.0). Returns false when the game has ended.
local function advance(ctx, to)
  local l = ctx.locals
  local power = l.power
  local pc = ctx.vars.pcs_set[power]
  if pc and l.step <= 2 and to > 2 and ctx.vars.deferred[power] then
    ctx:log(string.format("%s carries out its deferred event at the table: %s (4.722).", name(ctx, power), ctx.vars.deferred[power]))
    ctx.vars.deferred[power] = nil
  end
  if pc and l.step <= 3 and to > 3 then
    unpaid(ctx, power)
    local victor = season.victor(ctx)
    if victor then
      season.finish(ctx, string.format("%s reaches its objective of %d VP", name(ctx, victor), ctx.data.tables.victory_objective[victor]))
      return false
    end
  end
  l.step = math.max(l.step, math.min(to, 4))
  return true
end

function player_turn.offer_peace(ctx, arg)
  local from, to = arg:match("^(.-)>(.+)$")
  peace.offer(ctx, from, to)
end

function player_turn.surrender(ctx, loser)
  peace.surrender(ctx, loser)
end

function player_turn.ally(ctx, other)
  advance(ctx, 2)
  alliance.propose(ctx, ctx.locals.power, other)
end

function player_turn.leave(ctx)
  advance(ctx, 2)
  alliance.leave(ctx, ctx.locals.power)
end

function player_turn.break_npc(ctx, npc)
  advance(ctx, 2)
  alliance.break_npc(ctx, ctx.locals.power, npc)
end

function player_turn.declare_war(ctx, target)
  advance(ctx, 3)
  war.declare(ctx, ctx.locals.power, target)
end

function player_turn.battle(ctx)
  if advance(ctx, 4) then
    battle.enter(ctx, ctx.locals.power)
  end
end

function player_turn.naval(ctx)
  if advance(ctx, 4) then
    naval.enter(ctx, ctx.locals.power)
  end
end

function player_turn.mat(ctx)
  mat.edit(ctx, ctx.locals.power)
end

-- Back from a sub-procedure: a form's figures go to what it was filled in for (a Corps of
-- the Player Mat, a battle, a naval combat); the rest need nothing.
function player_turn.on_resume(ctx, result)
  local power = ctx.locals.power
  if not mat.store(ctx, power, result) and not battle.begin(ctx, power, result) then
    naval.begin(ctx, power, result)
  end
end

function player_turn.declare_embargo(ctx)
  ctx.vars.embargo.FR = true
  ctx:log(string.format("%s: France declares the Continental System.", date(ctx)))
end

function player_turn.cancel_embargo(ctx)
  ctx.vars.embargo = {}
  ctx:log(string.format("%s: France cancels the Continental System.", date(ctx)))
end

function player_turn.join_embargo(ctx)
  ctx.vars.embargo[ctx.locals.power] = true
  ctx:log(string.format("%s: %s joins the Continental System.", date(ctx), name(ctx, ctx.locals.power)))
end

function player_turn.leave_embargo(ctx)
  ctx.vars.embargo[ctx.locals.power] = nil
  ctx:log(string.format("%s: %s leaves the Continental System.", date(ctx), name(ctx, ctx.locals.power)))
end

function player_turn.done(ctx)
  if not advance(ctx, 5) then
    return
  end
  local queue = ctx.locals.queue or {}
  if #queue > 0 then
    season.begin_turn(ctx, queue[1], { table.unpack(queue, 2) })
    return
  end
  draw(ctx)
end

-- The Mutual "Build" Phase (1.212, 6.0): each player in turn buys his new units, every
-- purchase at its list cost (the Player Mat's) raised 5% a province of its Line of
-- Communications (6.12), paid in gold; then the Season ends.
local build = {}
season.states.build = build

--- The adjusted cost of units of `list` cost built `loc` provinces from home (6.12): 5%
--- more a province, rounded to the nearest gold, a half up (RULES-GAPS.md).
function season.build_cost(list, loc)
  return (list * (100 + 5 * loc) + 50) // 100
end

function build.on_enter(ctx)
  ctx:set_phase(date(ctx) .. ": Mutual Build Phase")
  ctx.locals.n = 1
end

function build.prompt(ctx)
  local power = ctx.vars.pcs[ctx.locals.n]
  local actions = {
    { name = "built", label = "My builds are done" },
    { name = "mat", label = "Put the new divisions on my Player Mat (hidden from the other players, 2.5)" },
  }
  -- No other expenditure while a deficit lasts (4.221).
  if ctx:counter("gold." .. power) > 0 then
    table.insert(actions, 1, { name = "build", label = "Buy units (their list cost and Line of Communications)" })
  end
  return {
    seat = power,
    text = string.format("%s: 6.0 Mutual Build Phase: %s buys new units (%d gold)", date(ctx), name(ctx, power), ctx:counter("gold." .. power)),
    actions = actions,
  }
end

function build.mat(ctx)
  mat.edit(ctx, ctx.vars.pcs[ctx.locals.n])
end

function build.build(ctx)
  form.open(ctx, "purchase", { seat = ctx.vars.pcs[ctx.locals.n], cancel = "Buy nothing" })
end

function build.on_resume(ctx, result)
  local power = ctx.vars.pcs[ctx.locals.n]
  if mat.store(ctx, power, result) or result.cancelled then
    return
  end
  result = result.values
  local cost = season.build_cost(result.list, result.loc)
  if cost > ctx:counter("gold." .. power) then
    ctx:log(string.format("%s cannot pay %d gold for units of %d at a Line of Communications of %d.", name(ctx, power), cost, result.list, result.loc))
    return
  end
  local now = ctx:add_counter("gold." .. power, -cost)
  ctx:log(string.format("%s buys units of list cost %d at a Line of Communications of %d for %d gold: %d gold left.",
    name(ctx, power), result.list, result.loc, cost, now))
end

function build.built(ctx)
  if ctx.locals.n < #ctx.vars.pcs then
    ctx.locals.n = ctx.locals.n + 1
    return
  end
  season.end_season(ctx)
end

-- A purchase's figures: the list cost of the units, then the length of their Line of
-- Communications (0 at home; provinces of Spain, Portugal, Russia, the Ottoman Empire and
-- Africa counted twice, 6.12).
form.define("purchase", "6.12 A purchase", function()
  return {
    { key = "list", text = "the list cost of the units (from the Player Mat)", min = 1, max = 500 },
    { key = "loc", text = "the Line of Communications in provinces (0 at home; Spain, Portugal, Russia, the Ottoman Empire and Africa count twice)", min = 0, max = 50 },
  }
end)

--- The Season's end (6.2): the chits come out of the play; after Fall, the Winterphase of
--- the next year (or the end of the game after Fall 1815); else the next Season.
function season.end_season(ctx)
  -- A cancellation holds for its Season only (4.623); an Enforced Peace or Free Passage
  -- that has run out is no longer kept.
  ctx.vars.cancelled = {}
  for _, key in ipairs({ "peace", "passage" }) do
    local kept = {}
    for pair, last in pairs(ctx.vars[key]) do
      if last > powers.season_index(ctx) then
        kept[pair] = last
      end
    end
    ctx.vars[key] = kept
  end
  -- A Peace Party whose nation was at peace the whole Season is resolved (4.741).
  for _, power in ipairs(ctx.vars.pcs) do
    local party = ctx.vars.peace_party[power]
    if party and party.quiet then
      ctx.vars.peace_party[power] = nil
      ctx:log(string.format("%s has been at peace the whole Season: its Peace Party is over (4.741).", name(ctx, power)))
    end
  end
  for _, chit in ipairs(ctx:zone("drawn")) do
    ctx:move_card(chit, "chits", "bottom")
  end
  if ctx.vars.season == "Fall" then
    if ctx.vars.year >= 1815 then
      season.finish(ctx, "The game ends after the Fall 1815 Season (1.2): the players ranked by the share of their objectives (7.0)")
      return
    end
    ctx.vars.year = ctx.vars.year + 1
    ctx.vars.season = "Winterphase"
    ctx:set_turn(ctx:turn() + 1)
    ctx:set_phase(date(ctx))
    ctx:replace("tax", { n = 1 })
    return
  end
  ctx.vars.season = season.NEXT[ctx.vars.season]
  ctx:set_turn(ctx:turn() + 1)
  ctx:replace("turn_start")
end

return season
