-- Congress of Vienna bots' shared library: the steps the Playbook's two chart bots take
-- alike, the Allied bot (20) and the French bot (21), each given the bot's own tables, rule
-- numbers and words. Issue Selection by a ranked table (20.4, 21.4) and a Leader's table
-- (20.5.2, 21.5.2); the Wager card (20.3, 21.3); a card's bonus in a round (20.5, 21.5.1);
-- the debate table's cell and die (20.7.b, 21.6.2) and the declaration; the card-driven solo
-- method's play (19.3); the War Phase's rows (20.10, 21.9), the Initial Battle
-- Differential's cards and the military-card rows (20.11.2, 21.10.2); and the first option
-- of a question no step covers. The simple French bot of 18.4 (bots/lutzen_france.lua)
-- shares the answer to a card's bonus and the states that differ by one word. The reasons
-- are the bots' own, word for word.

local flowchart = include("@lib/flowchart.lua")
local chart = include("bots/lib/chart.lua")
local conditions = include("bots/lib/conditions.lua")
local libissues = include("bots/lib/issues.lua")
local reach = include("bots/lib/track.lua")
local trade = include("bots/lib/trade.lua")
local botwar = include("bots/lib/war.lua")
local cards = include("rules/cards.lua")
local solo = include("rules/cdgsm_display.lua")
local chartdice = include("rules/chartdice.lua")
local forces = include("rules/forces.lua")
local powers = include("rules/powers.lua")
local rules_war = include("rules/war.lua")

local playbook = {}

local named, index_of = chart.named, flowchart.first

-- A bot's state from `decide(ctx, seat, actions, t, arg)`: states that differ by one word
-- (the free issue and Issue Selection; a debate and a pre-emption) share one decision.
function playbook.with(decide, arg)
  return function(ctx, seat, actions, t)
    return decide(ctx, seat, actions, t, arg)
  end
end

-- The first option of a question no step of the chart covers, `judgment` naming the rule
-- that allows it ("20 (best judgment)").
function playbook.first_option(judgment)
  return function(ctx, actions, t)
    local i = named(actions, "choose") or 1
    return t:choose(i, "%s: no step of the chart for the question %s: %s.", judgment,
      tostring(ctx.locals.key), actions[i].label)
  end
end

-- The answer to the question of a card's bonus (Liberalism or Pax Britannica): the
-- Liberalism roll, `why` the reason; when it is not offered, `otherwise`.
function playbook.liberalism_bonus(why, otherwise)
  return function(ctx, actions, t)
    local i = index_of(actions, function(a)
      return a.arg == "Liberalism"
    end)
    if i then
      return t:choose(i, "%s", why)
    end
    return otherwise(ctx, actions, t)
  end
end

-- ---------------------------------------------------------------------------------------
-- Issues by a ranked table.

-- Issue Selection (20.4, Step 5; 21.4, Step 4): the first of `ranked.rows` (each {key,
-- issue, step}) whose issue is offered and whose condition (column `ranked.condition`)
-- holds by `ranked.holds(cond, piece)`; equal minor allies at random (`ranked.equal` names
-- the draw); no row, at random. `ranked.power` is the bot's power, `ranked.minor_words` its
-- words for the classes of minor allies, `ranked.table` the table's number ("20.4").
function playbook.select_issue(ctx, actions, t, what, ranked)
  local offered = {}
  for _, action in ipairs(actions) do
    if type(action.arg) == "string" and ctx.data.pieces[action.arg] then
      offered[#offered + 1] = action.arg
    end
  end
  for _, row in ipairs(ranked.rows) do
    local cond = ctx.data.tables[ranked.condition][row.key]
    local found = libissues.row_issues(ctx, row.issue, offered, ranked.power)
    if #found == 0 then
      t:step("%s: %s is not offered.", row.step, libissues.entry_words(ctx, row.issue, ranked.minor_words))
    elseif not ranked.holds(cond, found[1]) then
      t:step("%s: its condition does not hold (%s).", row.step, conditions.words(cond))
    else
      table.sort(found)
      local piece = #found == 1 and found[1] or found[ctx:random(#found, ranked.equal)]
      local i = named(actions, actions[1].name, piece)
      return t:choose(i, "%s: %s, %s.", row.step, what, actions[i].label)
    end
  end
  local pick = ctx:random(#actions, string.format("no row of %s applies, at random", ranked.table))
  return t:choose(pick, "After the last row of %s: no row applies, %s at random: %s.", ranked.table, what,
    actions[pick].label)
end

-- A Leader's table (20.5.2, 21.5.2): the first row of chart table `leader.issues` (keys
-- after `leader.prefix`) whose condition (column `leader.condition`) holds by
-- `leader.holds(cond)` and whose issue is among `pieces`: {key, piece}; `leader.label(key)`
-- names a row passed by.
function playbook.leader_plan(ctx, t, pieces, leader)
  for key, issue in chart.rows(ctx, leader.issues, leader.prefix) do
    local cond = ctx.data.tables[leader.condition][key]
    local found = libissues.row_issues(ctx, issue, pieces, leader.power)
    if not leader.holds(cond) then
      t:step("%s: its condition does not hold (%s).", leader.label(key), conditions.words(cond))
    elseif #found == 0 then
      t:step("%s: %s cannot be negotiated.", leader.label(key), libissues.entry_words(ctx, issue, leader.minor_words))
    else
      table.sort(found)
      return { key = key, piece = found[1] }
    end
  end
  return nil
end

-- The action that puts the card on a piece (the negotiation's choice), by piece.
function playbook.on(actions)
  return function(piece)
    return index_of(actions, function(a)
      return a.name == "on" and a.piece == piece
    end)
  end
end

-- The piece of `pieces` with the best rank by `rank_of(piece)` (none: 99), the first on ties.
function playbook.first_ranked(pieces, rank_of)
  local best, rank = nil, nil
  for _, piece in ipairs(pieces) do
    local r = rank_of(piece) or 99
    if rank == nil or r < rank then
      best, rank = piece, r
    end
  end
  return best
end

-- ---------------------------------------------------------------------------------------
-- The Wager card (20.3, Step 4; 21.3, Step 3).

-- The Wager rows both charts hold, for `power`, with `own` (the bot's first row) added;
-- `why` names the draw among equal cards.
function playbook.wager_rows(power, why, own)
  local words = {
    highest_non_military = { words = "the highest card that is no possibly usable military card", pick = function(ctx, list)
      return chart.extreme(ctx, chart.filter(list, function(c)
        return not solo.pumc(ctx, power, c)
      end), 1, why)
    end },
    highest = { words = "the highest card", pick = function(ctx, list)
      return chart.extreme(ctx, list, 1, why)
    end },
    lowest = { words = "the lowest card", pick = function(ctx, list)
      return chart.extreme(ctx, list, -1, why)
    end },
  }
  for word, row in pairs(own) do
    words[word] = row
  end
  return words
end

-- The Wager card by chart table `id` (rows of `words`): `step` begins the reasons, `whom`
-- the words of the chosen row ("for Russia, ", or "").
function playbook.wager_card(ctx, actions, t, id, words, step, whom)
  local offered = flowchart.collect(actions, "play", "card")
  for key, word in chart.rows(ctx, id) do
    local card = words[word].pick(ctx, offered)
    if card then
      return t:choose(chart.play_index(actions, card), "%s, row %s: %s%s, %s (%d).", step, key, whom, words[word].words,
        cards.name(ctx, card), chart.value_of(ctx, card))
    end
    t:step("%s, row %s: no %s is available.", step, key, words[word].words)
  end
  return t:choose(1, "After the last row of %s: %s.", step, actions[1].label)
end

-- ---------------------------------------------------------------------------------------
-- Rounds and debates.

-- A round table's bonus row (20.5, 21.5.1): the first card of `available` that collects its
-- bonus on one of `pieces` for `power`, as a plan {key, what = "bonus", card, piece}; none,
-- traced as row `key` of `row` ("20.5, step").
function playbook.bonus_plan(ctx, t, row, key, power, available, pieces)
  for _, card in ipairs(available) do
    local piece = libissues.bonus_issue(ctx, card, power, pieces)
    if piece then
      return { key = key, what = "bonus", card = card, piece = piece }
    end
  end
  t:step("%s %s: no available card collects its bonus now (it would be a normal card).", row, key)
  return nil
end

-- A negotiation in words: "CARD on ISSUE gains Russia 2 spaces, to …", with its rank in
-- the bot's table `table_name` ("20.4").
function playbook.negotiation_words(ctx, power, plan, table_name)
  return string.format("%s on %s gains %s %d space%s, to %s%s", cards.name(ctx, plan.card),
    chart.issue_name(ctx, plan.piece), powers.name(ctx, power), plan.gain, plan.gain == 1 and "" or "s",
    reach.words(ctx, power, plan.pos),
    plan.rank < 99 and string.format(" (Table %s rank %d)", table_name, plan.rank) or "")
end

-- The debate table's cell `cell_key` of chart table `id` for `power` (20.7.b, 21.6.2):
-- "debate", "roll" (the die is to be rolled) or nil, and whether the die decided. `prefix`
-- begins each reason, `who` names the power, `roll_debates(ctx, roll, m)` reads the die
-- against M.
function playbook.debate_cell(ctx, t, id, cell_key, piece, power, prefix, who, roll_debates)
  local entry = ctx.data.tables[id][cell_key]
  local cell = prefix .. chart.row(ctx, id, cell_key)
  if entry == "never" then
    t:step("%s: never (for %s).", cell, who)
    return nil
  elseif entry == "always" then
    t:step("%s: always.", cell)
    return "debate"
  end
  local m, space = chart.debate_m(ctx, piece)
  local roll = chartdice.rolled(ctx, power)
  if roll == nil then
    t:step("%s: roll 1d6 against M = 7 - %d = %d.", cell, space, m)
    return "roll"
  end
  local yes, how = roll_debates(ctx, roll, m)
  t:step("%s: the die shows %d, M = 7 - %d = %d: %s M, %s.", cell, roll, space, m, how,
    yes and who .. " debates" or "no debate")
  return yes and "debate" or nil, true
end

-- The declaration the chart decided (20.7.a, 21.6): `decision` "roll" takes the die (the
-- action `roll`, if offered), "debate" the action `name` of `power`, else the pass; `said`
-- holds the reasons (roll, act, pass).
function playbook.declare(actions, t, decision, roll, name, power, said)
  local pass = named(actions, "pass")
  if decision == "roll" then
    if roll then
      return t:choose(roll, "%s", said.roll)
    end
    decision = nil
  end
  local act = index_of(actions, function(a)
    return a.name == name and (type(a.arg) ~= "table" or a.arg.power == nil or a.arg.power == power)
  end)
  if decision == "debate" and act then
    return t:choose(act, "%s", said.act)
  end
  return t:choose(pass or 1, "%s", said.pass)
end

-- The card of `list` that takes `piece` farthest toward `power` (equal ones at random, `why`
-- naming the draw), and where.
function playbook.farthest_card(ctx, list, piece, power, why)
  return reach.best_card(ctx, list, piece, power, true, function(tied)
    table.sort(tied)
    return #tied == 1 and tied[1] or tied[ctx:random(#tied, why)]
  end)
end

-- The card-driven solo method's play (19.3): step 3's save, else the play for the purpose
-- of the card (`plays[purpose](offered)`, the offered cards; `plays.cost` for a Leader's).
function playbook.cdgsm_play(ctx, actions, t, plays)
  if named(actions, "save_none") then
    return botwar.save(ctx, actions, t)
  end
  local offered = flowchart.collect(actions, "play", "card")
  return (plays[ctx.locals.purpose] or plays.cost)(offered)
end

-- The card of `offered` that `power` needs least, by its letters, a possibly usable military
-- card last: a Leader's cost (the discard).
function playbook.least_needed(ctx, offered, power)
  return trade.order(ctx, chart.filter(offered, function(c)
    return not solo.pumc(ctx, power, c)
  end), power, power)[1] or trade.order(ctx, offered, power, power)[1]
end

-- ---------------------------------------------------------------------------------------
-- The War Phase (20.10-20.11, 21.9-21.10).

-- A chart table of placements: the first row that picks (`...` handed to the picks after
-- the actions), else done, `after` saying what stays.
function playbook.rows_or_done(ctx, t, id, words, step, after, actions, ...)
  local i = chart.pick_row(ctx, t, id, words, step, actions, ...)
  if i then
    return t:choose(i)
  end
  return t:choose(named(actions, "done") or 1, "After the last row of %s: %s", step, after)
end

-- The placement of a Military Operation marker: by the bot's own table, or by the table of
-- the other side's operations it places (each {id, words, step}).
function playbook.place_ops(own, enemy)
  return function(ctx, _, actions, t)
    local op = ctx.locals.todo[1]
    local by = op.enemy and enemy or own
    local i = chart.pick_row(ctx, t, by.id, by.words, by.step, actions, op)
    if i then
      return t:choose(i)
    end
    return t:choose(1, "After the last row of %s: %s.", by.step, actions[1].label)
  end
end

-- The Allied operations' rows both charts hold.
playbook.ALLIED_OP_ROWS = {
  persian_war = { words = "a Russian operation to the Russian-Persian War box", pick = function(_, actions)
    return named(actions, "place", "russian_persian_war")
  end },
  war_of_1812 = { words = "a British operation to the War of 1812 box", pick = function(_, actions)
    return named(actions, "place", forces.W1812)
  end },
}

-- The French operations' row both charts hold.
playbook.W1812_ROW = { words = "the War of 1812 box", pick = function(_, actions)
  return named(actions, "place", forces.W1812)
end }

-- `rows` with `more` added.
function playbook.merged(rows, more)
  local out = {}
  for word, row in pairs(rows) do
    out[word] = row
  end
  for word, row in pairs(more) do
    out[word] = row
  end
  return out
end

-- The row that places an operation of the other side with its army that has the fewest
-- units.
function playbook.fewest_row(words)
  return { words = words, pick = function(ctx, actions)
    return chart.best_action(actions, "place", function(a)
      return a.piece and forces.units(ctx, forces.box(a.piece)) or nil
    end, -1)
  end }
end

-- The row that places an operation with the army where `side` outnumbers the other the
-- most, if it does: the other side's army (`own` false), or the side's own army without an
-- operation yet.
function playbook.outnumber_row(words, side, own)
  return { words = words, pick = function(ctx, actions)
    local i, adv
    if own then
      i, adv = chart.best_action(actions, "place", function(a)
        local front = chart.target_front(ctx, a.arg)
        return front and chart.advantage(ctx, front, side) or nil
      end, 1, function(a)
        return not chart.has_op(ctx, a.arg)
      end)
    else
      i, adv = chart.best_action(actions, "place", function(a)
        local front = a.piece and chart.target_front(ctx, a.arg)
        return front and chart.advantage(ctx, front, side) or nil
      end, 1)
    end
    return (adv or 0) > 0 and i or nil
  end }
end

-- The rows of the support and strategic movement tables (20.10.3-20.10.4, 21.9.3-21.9.4)
-- both charts hold, for `side` ("allied" or "FR"): `army` names the moving power's armies
-- in a row's words ("the power's army"), `reserve` its reserve ("a National Reserve unit");
-- `own_kind(ctx, kind, power)` whether a unit is the moving power's. Each pick takes the
-- moving power after the actions. Two tables: the supports' rows, the strategic rows.
function playbook.war_rows(side, army, reserve, own_kind)
  local function advantage(ctx, front)
    return chart.advantage(ctx, front, side)
  end
  local supports = {
    battle_fronts = { words = string.format("with %s in a battle with the smallest unit advantage", army),
      pick = function(ctx, actions, power)
        local fronts = chart.battle_fronts(ctx, power)
        return chart.best_action(actions, "place", function(a)
          return fronts[a.arg] and advantage(ctx, fronts[a.arg]) or nil
        end, -1)
      end },
    war_of_1812 = { words = "the War of 1812 box, where a battle is fought", pick = function(ctx, actions)
      return rules_war.battle_on(ctx, "G") and named(actions, "place", forces.W1812) or nil
    end },
  }
  local strategic = {
    reserve_to_battles = { words = string.format("%s to %s in a battle with the smallest unit advantage", reserve, army),
      pick = function(ctx, actions, power)
        local fronts = chart.battle_fronts(ctx, power)
        return chart.best_action(actions, "reserve", function(a)
          return fronts[a.arg.box] and advantage(ctx, fronts[a.arg.box]) or nil
        end, -1)
      end },
    reserve_fewest = { words = string.format("%s to %s with the fewest units", reserve, army), pick = function(ctx, actions)
      return chart.best_action(actions, "reserve", function(a)
        return forces.units(ctx, a.arg.box, side)
      end, -1)
    end },
    idle_to_battles = { words = "a unit from an army without a battle to the army in a battle with the smallest advantage",
      pick = function(ctx, actions, power)
        local fronts = chart.battle_fronts(ctx, power)
        return chart.best_action(actions, "move", function(a)
          return fronts[a.arg.to] and advantage(ctx, fronts[a.arg.to]) or nil
        end, -1, function(a)
          return fronts[a.arg.from] == nil and own_kind(ctx, a.arg.kind, power)
        end)
      end },
  }
  return supports, strategic
end

-- Adds the military cards of `list` (each {card, target, drm?}) to the explained sum `sum`,
-- each counting `sign` times its DRM, named with `enemy` when it targets the enemy, else
-- with `own`.
function playbook.add_cards(ctx, sum, list, sign, enemy, own)
  for _, entry in ipairs(list or {}) do
    sum:add(sign * math.abs(entry.drm or chart.field(ctx, entry.card, "drm") or 0),
      string.format("%s %s", cards.name(ctx, entry.card), entry.target == "enemy" and enemy or own))
  end
end

-- The military card to lay by chart table `id` (rows of `words`, each picked with the
-- actions and `...`), else `done`: `step` begins the reasons, `who` says who lays ("France
-- has").
function playbook.lay_card(ctx, t, actions, done, id, words, step, who, ...)
  for key, word in chart.rows(ctx, id) do
    local i = words[word].pick(ctx, actions, ...)
    if i then
      return t:choose(i, "%s, row %s: %s: lay %s (DRM %d).", step, key, words[word].words, cards.name(ctx, actions[i].card),
        botwar.drm_of(ctx, actions[i].card))
    end
    t:step("%s, row %s: %s: none.", step, key, words[word].words)
  end
  return t:choose(done, "After the last row of %s: %s no more cards for this battle.", step, who)
end

return playbook
