-- Napoleonic Wars Campaign (seed 004), run by mail with an umpire: the hook table and the
-- turn. Each turn (section 8): the umpire publishes the intel and each nation's income
-- comes in (told to it alone); every nation mails its orders, which the module records as
-- received (the orders themselves are free text that stays in the mail); then the umpire
-- carries out the turn's steps, moving the generals on the map by hand, and the rules
-- resolve what the text prints: battles (with the fleets' Intercept and Evade orders at
-- sea), raids, random events, replacement generals, conversions of RP, captured capitals,
-- submissions and their enforced peace, the declarations of war and alliances of the
-- Winter turn (rules/diplomacy.lua), and the victory tally.

local util = include("@lib/util.lua")
local calendar = include("rules/calendar.lua")
local battle = include("rules/battle.lua")
local bank = include("rules/bank.lua")
local victory = include("rules/victory.lua")
local diplomacy = include("rules/diplomacy.lua")
local form = include("@lib/form.lua")
local steps = include("@lib/steps.lua")

local NATIONS = { "FR", "AU", "GB", "RU", "SP", "OT", "PR", "SW", "DK" }
local UMPIRE = "UM"

local function name(ctx, seat)
  return ctx.data.seats[seat].name
end

-- The named readings (RULES-GAPS.md) are declared in data/options.ron, default first.
local function setup(ctx, scenario, options)
  ctx.vars.nations = NATIONS
  ctx.vars.options = util.readings(ctx.data.options, options)
  for _, seat in ipairs(NATIONS) do
    ctx.private[seat] = { bank = { rp = 0, ap = 0, cash = 0 } }
  end
  ctx.vars.held = {}
  ctx.vars.submissions = {}
  -- By pair of nations (rules/diplomacy.lua): at the start only France and Britain are at
  -- war (L44), and nobody is allied.
  ctx.vars.war = { [diplomacy.pair("FR", "GB")] = true }
  ctx.vars.alliances = {}
  ctx.vars.peace = {}
  ctx:set_turn(1)
  ctx:set_phase(calendar.words(1))
  ctx:log(string.format("The campaign opens in %s; the umpire runs it.", calendar.words(1)))
  ctx:call("turn")
end

-- The enforced peaces of submissions (20.1a, L854-L860), counted at each turn's start: a
-- peace holds through the turn of the submission and its four turns (eight for the second
-- terms) after; the reparations of the third terms are paid in each of those four turns.
local function count_peace(ctx)
  for _, key in ipairs(util.sorted_keys(ctx.vars.peace)) do
    local peace = ctx.vars.peace[key]
    local loser, to = name(ctx, peace.loser), name(ctx, peace.to)
    if peace.turns <= 0 then
      ctx.vars.peace[key] = nil
      ctx:log(string.format("The enforced peace between %s and %s is over.", loser, to))
    else
      peace.turns = peace.turns - 1
      if peace.terms == "reparations" then
        local due = ctx.data.tables.reparations[peace.loser]
        local paid = math.min(due, bank.of(ctx, peace.loser).cash)
        bank.add(ctx, peace.loser, "cash", -paid)
        bank.add(ctx, peace.to, "cash", paid)
        ctx:log(string.format("%s pays %s $%d in reparations (the peace holds this turn and %d more).", loser, to, paid, peace.turns))
      else
        ctx:log(string.format("The enforced peace between %s and %s holds this turn and %d more.", loser, to, peace.turns))
      end
    end
  end
end

-- Step 1: the umpire publishes the intel map and the orders of battle.
local intel = {}

function intel.prompt(ctx)
  return {
    seat = UMPIRE,
    text = string.format("%s — 1. Publish the intel map and the orders of battle", calendar.words(ctx:turn())),
    actions = { { name = "published", label = "Published: collect the turn's income" } },
  }
end

function intel.published(ctx)
  ctx:pop()
end

-- The turn's income: each nation's trade (16.2), Spain's gold in the Fall (16.3), told to
-- it alone.
local function income(ctx)
  local season = calendar.of(ctx:turn())
  for _, seat in ipairs(NATIONS) do
    local rp = bank.trade(ctx, seat)
    if seat == "SP" and season == "Fall" then
      rp = rp + bank.dice(ctx, bank.GOLD_DICE, "Spain's gold from the Americas", seat)
    end
    -- A raid last turn takes its RP from this turn's income (19.9).
    local raided = ctx.private[seat].raided or 0
    ctx.private[seat].raided = nil
    bank.add(ctx, seat, "rp", math.max(0, rp - raided))
    ctx:tell(seat, string.format("Your trade brings %d RP this turn%s.", rp,
      raided > 0 and string.format(", less %d lost to raids", raided) or ""))
  end
end

-- Step 2: every nation mails its orders at once; the umpire records each as received.
local orders = {}

function orders.prompt(ctx)
  local asks = {}
  for _, seat in ipairs(NATIONS) do
    asks[#asks + 1] = {
      seat = seat,
      actions = {
        { name = "received", label = "Orders received" },
        { name = "none", label = "No orders this turn" },
      },
    }
  end
  return { text = "2. Orders by mail: record each nation's as it arrives", asks = asks, private = "sent word" }
end

function orders.reveal(ctx, choices)
  local got, none = {}, {}
  for _, seat in ipairs(NATIONS) do
    local list = choices[seat] and choices[seat].name == "received" and got or none
    list[#list + 1] = name(ctx, seat)
  end
  ctx:log(string.format("Orders received from %s.", #got > 0 and table.concat(got, ", ") or "nobody"))
  if #none > 0 then
    ctx:log(string.format("No orders from %s: their forces hold.", table.concat(none, ", ")))
  end
  ctx:pop()
end

-- Steps 3 to 9, one at a time: the umpire carries out the step (locals: its `id` and the
-- prompt's `text`) and records what the rules resolve, then is done with it.
local umpire = {}

-- The nations that have RP to convert (16.5).
local function with_rp(ctx)
  local choices = {}
  for _, seat in ipairs(NATIONS) do
    if bank.of(ctx, seat).rp >= 1 then
      choices[#choices + 1] = { seat, name(ctx, seat) }
    end
  end
  return choices
end

-- The nations that may declare war on someone (L44).
local function may_declare(ctx)
  return diplomacy.nations_where(ctx, function(seat)
    return #diplomacy.targets(ctx, seat) > 0
  end)
end

-- The nations that may make, renew or break an alliance with someone (L42).
local function may_ally(ctx)
  return diplomacy.nations_where(ctx, function(seat)
    return #diplomacy.partners(ctx, seat) > 0
  end)
end

local function other_actions(ctx, actions)
  if #with_rp(ctx) > 0 then
    actions[#actions + 1] = { name = "convert", label = "Convert a nation's RP into AP or cash" }
  end
  actions[#actions + 1] = { name = "adjust", label = "Adjust a nation's bank (purchases, exchanges)" }
  actions[#actions + 1] = { name = "held", label = "Record the Victory Cities a nation holds" }
  -- Diplomacy (section 7): declarations of war and changes to alliances in the Winter turn
  -- alone; an ally of France may leave it in the turn after Napoleon's defeat.
  if diplomacy.winter(ctx) then
    if #may_declare(ctx) > 0 then
      actions[#actions + 1] = { name = "declare_war", label = "Record a nation's declaration of war (Winter)" }
    end
    if #may_ally(ctx) > 0 then
      actions[#actions + 1] = { name = "alliance", label = "Record an alliance made, renewed or broken (Winter)" }
    end
  end
  if #diplomacy.french_allies(ctx) > 0 then
    actions[#actions + 1] = { name = "break_french_alliance", label = "An ally of France leaves it after Napoleon's defeat",
      confirm = "Only in the turn after Napoleon was defeated in battle: the ally leaves its alliance with France now, whatever the season." }
  end
  -- A capital is captured, and a nation submits, only in a war.
  if #diplomacy.belligerents(ctx) > 0 then
    actions[#actions + 1] = { name = "capital", label = "Record a nation's captured capital (its bank goes to the captor)" }
    actions[#actions + 1] = { name = "submission", label = "Record a nation's submission" }
  end
  actions[#actions + 1] = { name = "replacement", label = "Give a nation a replacement general" }
  actions[#actions + 1] = { name = "end_game", label = "End the game now (an automatic victory)", confirm = "The game ends now and the victory points are counted." }
end

function umpire.prompt(ctx)
  local step = ctx.locals
  local actions = {}
  if step.id == "battles" then
    -- Nobody attacks a nation it has not declared war on (L44).
    local war = #diplomacy.belligerents(ctx) > 0
    if war then
      actions[#actions + 1] = { name = "battle", label = "Resolve a battle" }
    end
    if war then
      actions[#actions + 1] = { name = "raid", label = "Resolve a raid" }
      actions[#actions + 1] = { name = "privateering", label = "Resolve privateering" }
      actions[#actions + 1] = { name = "marauders", label = "Resolve a marauders' attack" }
    end
  elseif step.id == "movement" then
    actions[#actions + 1] = { name = "force_march", label = "A force march's losses" }
  elseif step.id == "event" then
    actions[#actions + 1] = { name = "event", label = "Roll the random event" }
  end
  if step.id ~= "event" or step.rolled then
    actions[#actions + 1] = { name = "done", label = "Done: the next step" }
  end
  other_actions(ctx, actions)
  return { seat = UMPIRE, text = string.format("%s — %s", calendar.words(ctx:turn()), step.text), actions = actions }
end

-- The nations as a form's choices, but `except`.
local function nations(ctx, except)
  local choices = {}
  for _, seat in ipairs(NATIONS) do
    if seat ~= except then
      choices[#choices + 1] = { seat, name(ctx, seat) }
    end
  end
  return choices
end

local YES_NO = { { true, "Yes" }, { false, "No" } }
local MANY = 100000

-- `seats` as a form's choices.
local function choices_of(ctx, seats)
  local choices = {}
  for _, seat in ipairs(seats) do
    choices[#choices + 1] = { seat, name(ctx, seat) }
  end
  return choices
end

-- The nations at war with someone, and those at war with `seat`: the attackers and their
-- victims a form offers (L44).
local function belligerents(ctx)
  return choices_of(ctx, diplomacy.belligerents(ctx))
end

local function enemies(ctx, seat)
  return choices_of(ctx, diplomacy.enemies(ctx, seat))
end

-- `fields` with a count for each land arm (battle.LAND_ARMS), in words `words` ("its %s
-- present").
local function with_arms(fields, words)
  for _, arm in ipairs(battle.LAND_ARMS) do
    fields[#fields + 1] = { key = arm, text = string.format(words, arm), min = 0, max = MANY }
  end
  return fields
end

-- The land arms' losses at `pct` percent of the counts a form gave (`v`), in words.
local function land_losses(v, pct)
  local lost = battle.losses({ infantry = v.infantry, cavalry = v.cavalry, artillery = v.artillery }, battle.LAND_ARMS, pct)
  return string.format("%d infantry, %d cavalry, %d artillery", lost.infantry, lost.cavalry, lost.artillery)
end

-- The fields of an attack (L44): the attacker (field `key`, in words `words`), a nation at
-- war, and its victim (`victim_key`, `victim_words`), a nation at war with it; then `more`.
local function attack_fields(ctx, v, key, words, victim_key, victim_words, more)
  local fields = {
    { key = key, text = words, choices = belligerents(ctx) },
    { key = victim_key, text = victim_words, choices = enemies(ctx, v[key]) },
  }
  for _, field in ipairs(more or {}) do
    fields[#fields + 1] = field
  end
  return fields
end

local ORDERS = {
  { "intercept", "Intercept" },
  { "evade", "Evade" },
  { "none", "No orders (read as Intercept)" },
}

form.define("battle", "Battle", function(ctx, v)
  local fields = {
    { key = "kind", text = "what kind of battle", choices = {
      { "field", "A field battle (one side attacks, the other defends)" },
      { "meeting", "A meeting engagement (both sides attack)" },
      { "siege", "A siege" },
      { "sea", "A sea battle" },
    } },
    { key = "attacker", text = "the attacker", choices = belligerents(ctx) },
    { key = "defender", text = "the defender (a nation at war with the attacker)", choices = enemies(ctx, v.attacker) },
    { key = "cv_attacker", text = "the attacker's combat value", min = 0, max = MANY },
    { key = "cv_defender", text = "the defender's combat value", min = 1, max = MANY },
    { key = "advantage", text = v.kind == "sea" and "who has the battle advantage (more battle modifiers)"
      or string.format("who has the battle advantage (more battle modifiers; an army out of supply counts %s)",
        ctx.vars.options["battle.out_of_supply"]), choices = {
      { "attacker", "The attacker" }, { "defender", "The defender" }, { "none", "Neither" },
    } },
    { key = "drm", text = "the commanding generals' modifiers to the roll (+1 for the attacker's, -1 for the defender's)", min = -2, max = 2 },
  }
  local order = v.kind == "sea" and battle.SEA_ARMS or battle.LAND_ARMS
  for _, side in ipairs({ "attacker", "defender" }) do
    for _, arm in ipairs(order) do
      fields[#fields + 1] = { key = side .. "." .. arm, text = string.format("the %s's %s present", side, arm:gsub("_", " ")), min = 0, max = MANY }
    end
  end
  if v.kind ~= "sea" then
    fields[#fields + 1] = { key = "death_of_general", text = "whether the Death of a General event holds this turn", choices = YES_NO }
  else
    -- Each fleet at sea has Intercept or Evade orders (19.6a), asked after the figures.
    fields[#fields + 1] = { key = "orders_attacker", text = "the attacker's fleet's orders", choices = ORDERS }
    fields[#fields + 1] = { key = "orders_defender", text = "the defender's fleet's orders", choices = ORDERS }
  end
  return fields
end)

-- An army force-marches at most its movement again: the hexes beyond are asked up to it.
form.define("force_march", "Force march", function(ctx, v)
  return with_arms({
    { key = "nation", text = "the nation whose army force-marched", choices = nations(ctx) },
    { key = "movement", text = "the army's movement allowance in hexes", min = 1, max = 100 },
    { key = "extra", text = "the hexes it marched beyond it", min = 1, max = v.movement or 100 },
  }, "its %s present")
end)

form.define("marauders", "Marauders' attack", function(ctx, v)
  return with_arms(attack_fields(ctx, v, "nation", "the nation whose marauders attack", "victim",
    "the nation attacked (at war with it)"), "the %s attacked")
end)

form.define("privateering", "Privateering", function(ctx, v)
  return attack_fields(ctx, v, "nation", "the nation whose fleets go privateering", "victim", "the enemy whose trade they take", {
    { key = "fleets", text = "the fleets and squadrons privateering (after any battle with escorts)", min = 1, max = 100 },
  })
end)

-- A raid is an attack: only on a nation the raider is at war with (L44).
form.define("raid", "Raid", function(ctx, v)
  return attack_fields(ctx, v, "raider", "the nation whose forces raid", "nation", "the nation raided", {
    { key = "province_rp", text = "the RP the raided province produces", min = 0, max = MANY },
    { key = "cities", text = "the cities of the province", min = 1, max = 100 },
    { key = "victory_city", text = "whether the city raided is a Victory City", choices = YES_NO },
  })
end)

-- A nation converts no more RP than it has: the form offers only nations with RP, and as
-- many as the nation chosen has.
form.define("convert", "Conversion", function(ctx, values)
  local have = values.nation and bank.of(ctx, values.nation).rp or MANY
  return {
    { key = "nation", text = "the nation", choices = with_rp(ctx) },
    { key = "into", text = "what its RP buy", choices = { { "ap", "Action points (1 per RP)" }, { "cash", "Cash ($10 per RP)" } } },
    { key = "rp", text = "how many RP", min = 1, max = have },
  }
end)

form.define("adjust", "Bank adjustment", function(ctx)
  return {
    { key = "nation", text = "the nation", choices = nations(ctx) },
    { key = "what", text = "what changes", choices = { { "rp", "Resource points" }, { "ap", "Action points" }, { "cash", "Cash ($)" } } },
    { key = "by", text = "by how much (negative: spent or given)", min = -MANY, max = MANY },
  }
end)

form.define("held", "Victory Cities held", function(ctx)
  return {
    { key = "nation", text = "the nation", choices = nations(ctx) },
    { key = "cities", text = "the Victory Cities it holds", min = 0, max = 1000 },
  }
end)

form.define("submission", "Submission", function(ctx, v)
  return attack_fields(ctx, v, "nation", "the nation that submits", "to", "the enemy it submits to", {
    { key = "terms", text = "the terms the victor chooses (20.1a)", choices = {
      { "two-provinces", "Two provinces ceded, one year of peace" },
      { "one-province", "One province ceded, two years of peace" },
      { "reparations", "Reparations each turn of a one-year peace" },
    } },
  })
end)

-- A capital held by an enemy battalion at the turn's end (14.1, L184); Russia's counts when
-- both its capitals are held (RULES-GAPS.md).
form.define("capital", "Captured capital", function(ctx, v)
  return {
    { key = "nation", text = "the nation whose capital is captured", choices = belligerents(ctx) },
    { key = "captor", text = "the enemy that captures it", choices = enemies(ctx, v.nation) },
  }
end)

form.define("declare_war", "Declaration of war", function(ctx, v)
  return {
    { key = "nation", text = "the nation that declares war", choices = choices_of(ctx, may_declare(ctx)) },
    { key = "target", text = "the nation it declares war on (not at war with it, nor at peace or allied with it)",
      choices = choices_of(ctx, diplomacy.targets(ctx, v.nation)) },
  }
end)

local ALLIANCE_MOVES = {
  make = "Made (for this year, to the Fall)",
  renew = "Renewed for this year",
  ["break"] = "Broken",
}

form.define("alliance", "Alliance", function(ctx, v)
  local moves = {}
  for _, move in ipairs(diplomacy.alliance_moves(ctx, v.a, v.b)) do
    moves[#moves + 1] = { move, ALLIANCE_MOVES[move] }
  end
  return {
    { key = "a", text = "one nation of the alliance", choices = choices_of(ctx, may_ally(ctx)) },
    { key = "b", text = "the other (Britain and France never ally, nor the Ottomans with Austria or Russia)",
      choices = choices_of(ctx, diplomacy.partners(ctx, v.a)) },
    { key = "what", text = "what becomes of their alliance", choices = moves },
  }
end)

form.define("break_french_alliance", "Leaving France's alliance", function(ctx)
  return {
    { key = "nation", text = "the ally of France that leaves its alliance (Napoleon was defeated last turn)",
      choices = choices_of(ctx, diplomacy.french_allies(ctx)) },
  }
end)

form.define("replacement", "Replacement general", function(ctx)
  return { { key = "nation", text = "the nation that lost a general", choices = nations(ctx) } }
end)

-- What each form does once its figures are in.
local DO = {}

local ORDER_WORDS = { intercept = "Intercept", evade = "Evade", none = "no orders, read as Intercept" }

-- Two fleets at sea (19.6a): whether they fight, told to both nations as a battle is; nil
-- when no battle is fought, else the battle as it is fought.
local function sea_encounter(ctx, b, v)
  local told = { b.attacker, b.defender }
  local seat = { attacker = b.attacker, defender = b.defender }
  local outcome, fought, dice, evader = battle.encounter(b, { attacker = v.orders_attacker, defender = v.orders_defender },
    function(side)
      return ctx:roll(6, name(ctx, seat[side]) .. "'s fleet at sea", told)
    end)
  local a, d = name(ctx, b.attacker), name(ctx, b.defender)
  local text = string.format("Sea encounter, %s (%s) and %s (%s)", a, ORDER_WORDS[v.orders_attacker], d, ORDER_WORDS[v.orders_defender])
  if dice then
    text = text .. string.format(": %s rolls %d, %s rolls %d", a, dice.attacker, d, dice.defender)
  end
  local runner = evader and name(ctx, seat[evader])
  if outcome == "both evade" then
    text = text .. ": both evade; no battle."
  elseif outcome == "evades" then
    text = text .. string.format(": %s's fleet evades; no battle.", runner)
  elseif outcome == "flees" then
    text = text .. string.format(": %s's frigates flee from the men of war to the nearest friendly port or sea area free of enemy fleets (the umpire moves them); no battle.", runner)
  elseif evader then
    text = text .. string.format(": %s's fleet fails to evade; %s attacks.", runner, name(ctx, fought.attacker))
  else
    text = text .. ": both intercept; battle."
  end
  for _, to in ipairs(told) do
    ctx:tell(to, text)
  end
  return fought
end

function DO.battle(ctx, v)
  if not diplomacy.at_war(ctx, v.attacker, v.defender) then
    error(string.format("%s is not at war with %s", name(ctx, v.attacker), name(ctx, v.defender)))
  end
  local order = v.kind == "sea" and battle.SEA_ARMS or battle.LAND_ARMS
  local b = {
    kind = v.kind, attacker = v.attacker, defender = v.defender,
    cv = { attacker = v.cv_attacker, defender = v.cv_defender },
    advantage = v.advantage ~= "none" and v.advantage or nil,
    drm = v.drm,
    death_of_general = v.death_of_general,
    arms = { attacker = {}, defender = {} },
  }
  for _, side in ipairs({ "attacker", "defender" }) do
    for _, arm in ipairs(order) do
      b.arms[side][arm] = v[side .. "." .. arm]
    end
  end
  if v.kind == "sea" then
    b = sea_encounter(ctx, b, v)
    if not b then
      return
    end
  end
  local told = { b.attacker, b.defender }
  local roll = ctx:roll(6, "the battle", told) + ctx:roll(6, "the battle", told)
  battle.tell(ctx, b, battle.resolve(ctx, b, roll))
end

function DO.force_march(ctx, v)
  local pct = battle.force_march(ctx, v.nation, v.movement, v.extra)
  if not pct then
    error(string.format("an army may force-march at most its movement again (%d hexes), not %d", v.movement, v.extra))
  end
  local words = land_losses(v, pct)
  ctx:tell(v.nation, string.format("Your force march of %d extra hex(es) costs %d%%: %s.", v.extra, pct, words))
end

-- Marauders (L116): an attrition attack of 1d6 x 5% casualties, by arm as a battle's
-- losses, told to both nations.
function DO.marauders(ctx, v)
  local told = { v.nation, v.victim }
  local pct = 5 * ctx:roll(6, "the marauders' attack", told)
  local words = land_losses(v, pct)
  local text = string.format("%s's marauders inflict %d%% on %s: %s.", name(ctx, v.nation), pct, name(ctx, v.victim), words)
  for _, seat in ipairs(told) do
    ctx:tell(seat, text)
  end
end

-- Privateering (16.4): each fleet takes 1d6 RP of the victim's trade and gains as much
-- (one die each, RULES-GAPS.md), told to both.
function DO.privateering(ctx, v)
  local told = { v.nation, v.victim }
  local taken = 0
  for _ = 1, v.fleets do
    taken = taken + ctx:roll(6, "privateering", told)
  end
  local lost = math.min(taken, bank.of(ctx, v.victim).rp)
  bank.add(ctx, v.victim, "rp", -lost)
  bank.add(ctx, v.nation, "rp", taken)
  local text = string.format("%s's privateers take %d RP of %s's trade (%d of it there to take).",
    name(ctx, v.nation), taken, name(ctx, v.victim), lost)
  for _, seat in ipairs(told) do
    ctx:tell(seat, text)
  end
end

function DO.raid(ctx, v)
  local lost = bank.raid_loss(v.province_rp, v.cities, v.victory_city)
  local own = ctx.private[v.nation]
  own.raided = (own.raided or 0) + lost
  ctx:tell(v.nation, string.format("A raid costs you %d RP of next turn's income.", lost))
  ctx:log(string.format("%s is raided.", name(ctx, v.nation)))
end

function DO.convert(ctx, v)
  local got, why = bank.convert(ctx, v.nation, v.rp, v.into)
  if not got then
    error(why)
  end
  ctx:tell(v.nation, string.format("%d RP converted into %s.", v.rp, v.into == "ap" and "AP" or "cash"))
end

function DO.adjust(ctx, v)
  local now = bank.add(ctx, v.nation, v.what, v.by)
  ctx:tell(v.nation, string.format("Your %s: %+d, now %d.", v.what == "cash" and "cash" or v.what:upper(), v.by, now))
end

function DO.held(ctx, v)
  ctx.vars.held[v.nation] = v.cities
end

local TERMS_WORDS = {
  ["two-provinces"] = "two provinces ceded",
  ["one-province"] = "one province ceded",
  reparations = "reparations each turn",
}

-- A submission (20.1): a victory point to the victor (22.1), the end of their war (L852)
-- and the enforced peace of the terms chosen, public.
function DO.submission(ctx, v)
  ctx.vars.submissions[v.to] = (ctx.vars.submissions[v.to] or 0) + 1
  diplomacy.submit(ctx, v.nation, v.to, v.terms)
  ctx:log(string.format("%s submits to %s: %s; their war ends, and an enforced peace holds this turn and %d more.",
    name(ctx, v.nation), name(ctx, v.to), TERMS_WORDS[v.terms], diplomacy.PEACE_TURNS[v.terms]))
end

-- A captured capital (16.7, L240): the nation's whole bank of cash goes to the captor. The
-- bank is private: each of the two is told the sum; everyone reads that the capital fell.
function DO.capital(ctx, v)
  local cash = bank.seize(ctx, v.nation, v.captor)
  local loser, captor = name(ctx, v.nation), name(ctx, v.captor)
  ctx:tell(v.nation, string.format("%s takes your bank at your capital: $%d.", captor, cash))
  ctx:tell(v.captor, string.format("You take %s's bank at its capital: $%d.", loser, cash))
  if v.nation == "RU" then
    ctx:log("Russia's capitals, St. Petersburg and Moscow, have both fallen.")
  else
    ctx:log(string.format("%s's capital has fallen.", loser))
  end
end

-- Declarations of war (L44): in the Winter turn, public.
function DO.declare_war(ctx, v)
  diplomacy.declare(ctx, v.nation, v.target)
  ctx:log(string.format("%s declares war on %s.", name(ctx, v.nation), name(ctx, v.target)))
end

local ALLIANCE_WORDS = {
  make = "%s and %s make an alliance, to hold until the Fall.",
  renew = "%s and %s renew their alliance for the year.",
  ["break"] = "%s and %s break their alliance.",
}

-- Alliances (L42): made, renewed or broken in the Winter turn, public.
function DO.alliance(ctx, v)
  diplomacy.alliance(ctx, v.a, v.b, v.what)
  ctx:log(string.format(ALLIANCE_WORDS[v.what], name(ctx, v.a), name(ctx, v.b)))
end

-- An ally of France leaves it in the turn after Napoleon's defeat (L42), in any season.
function DO.break_french_alliance(ctx, v)
  if not diplomacy.allied(ctx, "FR", v.nation) then
    error(string.format("%s is not allied to France", name(ctx, v.nation)))
  end
  ctx.vars.alliances[diplomacy.pair("FR", v.nation)] = nil
  ctx:log(string.format("%s leaves its alliance with France after Napoleon's defeat.", name(ctx, v.nation)))
end

function DO.replacement(ctx, v)
  local roll = ctx:roll(6, "a replacement general", v.nation)
  local g = ctx.data.tables.replacement_general[tostring(roll)]
  local extra = g.extra ~= "" and (", " .. g.extra) or ""
  ctx:tell(v.nation, string.format("Your new general: rank %s, battle %d, command %d, CV %+d%s.", g.rank, g.battle, g.command, g.cv_mod, extra))
end

for form_name in pairs(DO) do
  umpire[form_name] = function(ctx)
    -- The umpire's figures are the umpire's: the rules tell each nation what it may learn.
    form.open(ctx, form_name, { seat = UMPIRE, private = "" })
  end
end

function umpire.on_resume(ctx, result)
  if result and not result.cancelled then
    DO[result.form](ctx, result.values)
  end
end

-- The random event's dice, as the owner's copy gives them: how many, of how many sides. The
-- text gives neither (L62): owner data.
local function event_dice(ctx)
  local t = ctx.data.tables.random_event_dice
  local n, sides = t.dice, t.sides
  if n < 1 or n > 10 or sides < 2 or sides > 100 then
    error(string.format("the random event's dice read %d of %d sides: give 1 to 10 dice of 2 to 100 sides (Card data, table The random event's dice)", n, sides))
  end
  return n, sides
end

function umpire.event(ctx)
  local n, sides = event_dice(ctx)
  local roll = 0
  for _ = 1, n do
    roll = roll + ctx:roll(sides, "the random event")
  end
  local text = ctx.data.tables.random_event[tostring(roll)]
  ctx.locals.rolled = true
  ctx:log(string.format("Random event (%d): %s", roll, text))
end

local function finish(ctx, why)
  local held = {}
  for _, seat in ipairs(NATIONS) do
    -- A nation whose holding was never recorded holds what it started with.
    held[seat] = ctx.vars.held[seat] or victory.start(ctx, seat)
  end
  local points = victory.points(ctx, held, ctx.vars.submissions)
  local winners = victory.winners(ctx, points)
  local names = {}
  for _, seat in ipairs(winners) do
    names[#names + 1] = name(ctx, seat)
  end
  ctx:game_over({ winners = winners, scores = points, text = string.format("%s; won by %s", why, table.concat(names, " and ")) })
end

function umpire.end_game(ctx)
  finish(ctx, "The umpire ends the campaign")
end

function umpire.done(ctx)
  ctx:pop()
end

-- The turn's end: unspent RP and AP are lost (16.6); an alliance not made or renewed in
-- the Winter turn lapses (L42); after the last turn the victory points are counted.
local function end_of_turn(ctx)
  for _, seat in ipairs(NATIONS) do
    bank.forfeit(ctx, seat)
  end
  if diplomacy.winter(ctx) then
    for _, key in ipairs(diplomacy.lapse(ctx)) do
      local a, b = diplomacy.seats(key)
      ctx:log(string.format("The alliance of %s and %s, not renewed this Winter, lapses.", name(ctx, a), name(ctx, b)))
    end
  end
  local turn = ctx:turn()
  if turn >= calendar.last_turn(ctx.vars.options["calendar.last_turn"]) then
    finish(ctx, string.format("The campaign ends after %s", calendar.words(turn)))
    return steps.stop()
  end
  ctx:set_turn(turn + 1)
  ctx:set_phase(calendar.words(turn + 1))
  ctx:log(string.format("%s begins.", calendar.words(turn + 1)))
end

-- One of the umpire's steps 3 to 9: `name` in the outline, `id` and `text` for its prompt.
local function umpire_step(step_name, id, text)
  return {
    name = step_name,
    calls = "steps",
    run = function()
      return steps.call("steps", { id = id, text = text })
    end,
  }
end

-- The turn (section 8), again each turn until the campaign's last.
local turn = steps.procedure("8 Sequence of play", {
  {
    name = "8.1 Intel published, income in",
    calls = "intel",
    run = function()
      return steps.call("intel")
    end,
    resume = function(ctx)
      income(ctx)
      count_peace(ctx)
    end,
  },
  {
    name = "8.2 Orders by mail",
    calls = "orders",
    run = function()
      return steps.call("orders")
    end,
  },
  umpire_step("8.3 New troops deployed", "deploy", "3. Deploy the new troops (place the generals by hand; convert RP)"),
  umpire_step("8.4 Movement, all at once", "movement", "4. Resolve the movement, all at once (move the generals by hand)"),
  umpire_step("8.5 Supply and attrition", "supply", "5. Check supply and take attrition"),
  umpire_step("8.6 Battles", "battles", "6. Resolve the battles, sieges, sea battles and raids"),
  umpire_step("8.7 Retreats", "retreats", "7. Resolve the retreats"),
  umpire_step("8.8 Random event", "event", "8. Roll the random event"),
  umpire_step("8.9 Orders of battle updated", "oob", "9. Update the orders of battle"),
  { name = "End of the turn", run = end_of_turn },
  again = true,
})

-- The pairs of `t` (wars, alliances or peaces) in words: "France and Britain; …", or each
-- as `words(entry, a, b)` gives it.
local function pairs_words(ctx, t, words)
  local out = {}
  for _, key in ipairs(util.sorted_keys(t)) do
    local a, b = diplomacy.seats(key)
    out[#out + 1] = words and words(t[key]) or string.format("%s and %s", name(ctx, a), name(ctx, b))
  end
  return #out > 0 and table.concat(out, "; ") or "none"
end

-- What a nation reads beside the table, in words: the date, the wars, alliances and
-- enforced peaces (public), and its own bank.
local function view(ctx, seat)
  local out = {
    ["Date"] = calendar.words(ctx:turn()),
    ["At war"] = pairs_words(ctx, ctx.vars.war),
    ["Alliances"] = pairs_words(ctx, ctx.vars.alliances),
    ["Enforced peace"] = pairs_words(ctx, ctx.vars.peace, function(p)
      return string.format("%s, submitted to %s (this turn and %d more)", name(ctx, p.loser), name(ctx, p.to), p.turns)
    end),
  }
  if seat == nil or seat == UMPIRE then
    return out
  end
  local b = bank.of(ctx, seat)
  out["Resource points (RP)"] = b.rp
  out["Action points (AP)"] = b.ap
  out["Cash ($)"] = b.cash
  out["RP a raid takes from next turn's income"] = ctx.private[seat].raided or 0
  return out
end

return {
  setup = setup,
  -- The umpire's step keeps its state name "steps", which the tests read.
  states = { turn = turn, intel = intel, orders = orders, steps = umpire, form = form.state },
  view = view,
}
